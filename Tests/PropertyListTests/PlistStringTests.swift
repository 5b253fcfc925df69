// Tests/PropertyListTests/PlistStringTests.swift - Strings read in place, equal to owned ones.

import Foundation
import PropertyList
import Testing

@Suite struct PlistStringTests {
    /// A long ASCII string (read in place), a short one (a small String), and a UTF-16 one.
    static let texts = ["a string long enough to be read in place", "short", "naïve café au lait, non-ASCII text"]

    static func decoded(_ texts: [String]) throws -> [PlistString] {
        let bytes = try BinaryPlistWriter().write(.array(texts.map { .string($0) }))
        guard case .array(let items) = try BinaryPlistDocument(bytes).value() else { return [] }
        return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }

    @Test func decodedStringsEqualAndHashLikeOwnedOnes() throws {
        let decoded = try Self.decoded(Self.texts)
        #expect(decoded.count == Self.texts.count)
        for (read, text) in zip(decoded, Self.texts) {
            let owned = PlistString(text)
            #expect(read == owned)
            #expect(read == text)
            #expect(text == read)
            #expect(read.hashValue == owned.hashValue)
            #expect(read.string == text)
            #expect(read.description == text)
            #expect(read.utf8Count == text.utf8.count)
            #expect(PlistValue.string(read) == PlistValue.string(text))
            #expect(PlistValue.string(read).hashValue == PlistValue.string(text).hashValue)
        }
        // Different texts of the same length differ.
        #expect(decoded[0] != PlistString("a string long enough to be read in placE"))
        #expect(decoded[0] != "a string long enough to be read in plac")
    }

    /// Every length from 0 to 40 (the byte comparison takes 1–3 bytes one by one, 4–7 as two overlapping
    /// words, 8 and more word by word with an overlapping last word), read in place and owned, against
    /// the same text and against the text with each one byte changed.
    @Test func equalityComparesEveryByteAtEveryLength() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCD")
        let texts = (0...40).map { String(alphabet.prefix($0)) }
        let decoded = try Self.decoded(texts)
        #expect(decoded.count == texts.count)
        for (read, text) in zip(decoded, texts) {
            for s in [read, PlistString(text)] {
                #expect(s == text)
                #expect(s == PlistString(text))
                #expect(!(s == text + "!"))
                for k in 0..<text.count {
                    var changed = Array(text)
                    changed[k] = "_"
                    #expect(!(s == String(changed)), "\(text.count) bytes, byte \(k)")
                    #expect(s != PlistString(String(changed)), "\(text.count) bytes, byte \(k)")
                }
            }
        }
    }

    @Test func exactTextNotCanonicalEquivalence() {
        #expect(PlistString("é") != PlistString("e\u{301}"))
        #expect("é" == "e\u{301}")  // Swift's String says equal; the property list does not.
    }

    @Test func aDictionaryFindsSliceKeysByString() throws {
        let key = "a dictionary key longer than fifteen bytes"
        let bytes = try BinaryPlistWriter().write(.dict([key: 1, "k": 2]))
        let tree = try BinaryPlistDocument(bytes).value()
        #expect(tree[key] == 1)
        #expect(tree["k"] == 2)
        #expect(Set([tree, try BinaryPlistDocument(bytes).value()]).count == 1)
    }

    @Test func aSliceOutlivesItsDocumentAndIsWrittenBackByteForByte() throws {
        let tree: PlistValue = .array((0..<200).map { .string("the repeated element number \($0 % 50)") })
        let bytes = try BinaryPlistWriter().write(tree)
        var read: PlistValue?
        do { read = try BinaryPlistDocument(Data(bytes)).value() }
        #expect(read == tree)
        // The writer reads slices in place; deduplication sees them as the same strings.
        #expect(try read.map { try BinaryPlistWriter().write($0) } == bytes)
    }

    @Test func aMappedFilesStringsAreCopiedOnceNotReadFromTheFile() throws {
        let tree: PlistValue = .array((0..<3_000).map { .string("string \($0) of a file that will shrink later") })
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strings-\(UUID().uuidString)")
        try BinaryPlistWriter().write(tree).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let value = try BinaryPlistDocument(contentsOf: url, access: .mapped).value()
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.close()
        // The tree holds its own copy: reading its strings touches no page of the (now empty) file.
        #expect(value == tree)
    }
}
