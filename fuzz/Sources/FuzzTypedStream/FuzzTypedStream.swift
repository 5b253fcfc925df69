// fuzz/Sources/FuzzTypedStream/FuzzTypedStream.swift - libFuzzer entry point: typedstreams (NSArchiver).
//
// 1. The event reader (TypedStreamReader) and the object layer (TypedStreamArchive) over the payload.
// 2. The typed layer: every object as a typed value, the root, a Messages body, a colour list.
// Oracles: errors are TypedStreamError with an offset inside the payload; the event reader and the
// object layer agree (the same error, or both succeed), and the one-pass decoder with them (the same
// values, or the same error); whatever reads writes back (the test-support writer)
// to bytes that read with the same groups, objects and classes, and writing that again gives the
// same bytes (a fixed point); a message body's runs are contiguous and cover its text.
//
// Configuration (FuzzInput.swift): allowsTrailingData from bit 0 of byte 0; maxDepth from its bits
// 3-4; maxValues from maxValues (capped at 65,536); maxTableEntries from maxObjects; the choice bits
// pick the union pointer size (bit 0: 4 instead of 8) and whether nested keyed archives are decoded.

import Foundation
import FuzzCommon
import KeyedArchive
import TypedStream
import Workloads

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    let payload = input.payload
    let config = input.config
    let limits = TypedStreamLimits(
        maxDepth: config.limits.maxDepth, maxValues: min(config.limits.maxValues, 1 << 16),
        maxTableEntries: min(config.limits.maxObjects, 1 << 16))
    let options = TypedStreamOptions(
        allowsTrailingData: config.options.allowsTrailingData, unionPointerSize: config.choice & 1 == 0 ? 8 : 4,
        decodesNestedKeyedArchives: config.choice & 2 != 0)

    func located(_ e: TypedStreamError, _ what: String) {
        require(!e.detail.isEmpty, "\(what): TypedStreamError without detail")
        if let offset = e.offset {
            require(offset >= 0 && offset <= payload.count, "\(what): offset \(offset) outside the input")
        }
    }

    // 1. Events, then the archive: the same outcome.
    var eventError: TypedStreamError?
    var events = 0
    do {
        var reader = try TypedStreamReader(payload, limits: limits, options: options)
        while try reader.next() != nil { events += 1 }
    } catch {
        located(error, "events")
        eventError = error
    }
    let archive: TypedStreamArchive
    do {
        archive = try TypedStreamArchive(payload, limits: limits, options: options)
        require(eventError == nil, "the archive read where the events failed: \(eventError.map { "\($0)" } ?? "")")
    } catch {
        located(error, "archive")
        require(
            eventError?.code == error.code && eventError?.offset == error.offset,
            "events and archive disagree: \(eventError.map { "\($0)" } ?? "no error") / \(error)")
        // The one-pass decoder fails too (with this error, or a typed-layer one met before it).
        do {
            let values = try TypedStreamArchive.decodeValues(
                from: payload, limits: limits, options: options)
            values.forEach { $0.breakReferenceCycles() }
            require(false, "the one-pass decoder read what the archive could not: \(error)")
        } catch let oneError {
            located(oneError, "one-pass")
            require(
                (oneError.code == error.code && oneError.offset == error.offset) || oneError.code == .cycle,
                "one-pass and archive errors disagree: \(oneError) / \(error)")
        }
        return 0
    }

    // 2. Written back: reads with the same structure; writing again is a fixed point.
    do {
        let bytes = try TypedStreamWriter.write(archive)
        let again = try TypedStreamArchive(
            bytes, limits: TypedStreamLimits(), options: TypedStreamOptions(unionPointerSize: options.unionPointerSize))
        require(again.groups.count == archive.groups.count, "written back: group count changed")
        require(again.objects.count == archive.objects.count, "written back: object count changed")
        require(again.classes == archive.classes, "written back: classes changed")
        require(again.groups.map(\.types) == archive.groups.map(\.types), "written back: types changed")
        let twice = try TypedStreamWriter.write(again)
        require(twice == bytes, "writing is not a fixed point")
    } catch {
        require(false, "an archive that read does not write back: \(error)")
    }

    // 3. The typed layer: values or typed errors (a value class containing itself, a depth).
    var decoded: [AnyArchived] = []
    var valuesError: TypedStreamError?
    var valueCount = 0
    do {
        decoded = try archive.decodeObjects()
        require(decoded.count == archive.objects.count, "decodeObjects: one value per object")
        let values = try archive.decodeValues()
        valueCount = values.count
        values.forEach { $0.breakReferenceCycles() }
    } catch {
        located(error, "decode")
        require(error.code == .cycle, "decode: unexpected \(error.code)")
        valuesError = error
    }
    // The one-pass decoder: the same values, or the same cycle (both convert in the order objects end).
    do {
        let values = try TypedStreamArchive.decodeValues(
            from: payload, limits: limits, options: options)
        values.forEach { $0.breakReferenceCycles() }
        require(
            valuesError == nil,
            "one-pass read what the archive decoder calls a cycle: \(valuesError.map { "\($0)" } ?? "")")
        require(values.count == valueCount, "one-pass: \(values.count) values, the archive \(valueCount)")
    } catch {
        located(error, "one-pass")
        require(
            error.code == .cycle && valuesError?.code == .cycle && error.object == valuesError?.object,
            "one-pass: \(error) (archive: \(valuesError.map { "\($0)" } ?? "no error"))")
    }
    do {
        let body = try MessageBody(attributedBody: payload, limits: limits, options: options)
        var at = 0
        for run in body.runs {
            require(run.range.lowerBound == at, "message body: runs not contiguous")
            at = run.range.upperBound
        }
        require(body.runs.isEmpty || at == body.text.utf16.count, "message body: runs do not cover the text")
        for run in body.runs { run.attributes.values.forEach { $0.breakReferenceCycles() } }
    } catch {
        located(error, "message body")
    }
    do {
        _ = try archive.colorList()
    } catch {
        located(error, "colour list")
    }
    // A cyclic graph of instances keeps itself alive (LeakSanitizer reports it): free it.
    for value in decoded { value.breakReferenceCycles() }
    _ = events
    return 0
}
