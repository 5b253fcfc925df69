// Tests/TypedStreamTests/WorkloadTests.swift - The benchmark workloads read as what they were written as.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import Testing
import TypedStream

@Suite struct WorkloadTests {
    @Test func messageBodies() throws {
        let blobs = TypedStreamSamples.messageBodies(count: 300)
        #expect(blobs.count == 300)
        var attachments = 0
        var mentions = 0
        for blob in blobs {
            let body = try MessageBody(attributedBody: blob)
            #expect(body.runs.last?.range.upperBound == body.text.utf16.count)
            attachments += body.parts.filter { $0.attachmentGUID != nil }.count
            mentions += body.runs.filter { $0.mention != nil }.count
        }
        #expect(attachments > 0)
        #expect(mentions > 0)
        // The same seed gives the same bytes.
        #expect(TypedStreamSamples.messageBodies(count: 50) == Array(blobs.prefix(50)))
    }

    @Test func objectGraph() throws {
        let archive = try TypedStreamArchive(TypedStreamSamples.objectGraph(count: 500))
        guard case .array(let records) = try archive.decodeRoot() else {
            Issue.record("not an array")
            return
        }
        #expect(records.count == 500)
        guard case .dictionary(let first)? = records.first, case .dictionary(let ninth) = records[9],
            case .dictionary(let tenth) = records[10]
        else {
            Issue.record("not dictionaries")
            return
        }
        #expect(first[.string("id")] == .integer(0))
        #expect(
            Set(first.keys) == [.string("id"), .string("name"), .string("created"), .string("blob"), .string("owner")])
        guard case .object(let a)? = first[.string("owner")], case .object(let b)? = ninth[.string("owner")],
            case .object(let c)? = tenth[.string("owner")]
        else {
            Issue.record("no owners")
            return
        }
        #expect(a === b)
        #expect(a !== c)
        #expect(a.className == "XWZOwner")
        #expect(a.classVersions == [2, 0])
        // Keys are one object each: 5 key objects in the whole stream.
        let keyObjects = archive.objects.indices.filter {
            archive.className(of: $0) == "NSString"
                && ["id", "name", "created", "blob", "owner"].contains(archive.objects[$0].values.first?.text ?? "")
        }
        #expect(keyObjects.count == 5)
    }
}
