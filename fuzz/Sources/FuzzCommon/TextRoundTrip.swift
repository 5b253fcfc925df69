// fuzz/Sources/FuzzCommon/TextRoundTrip.swift - The oracle of the text-format targets (FuzzXML,
// FuzzJSON, FuzzOpenStep): parse -> write -> parse gives the same value, and writing is a fixed
// point (writing the value read back gives the same bytes).

import Foundation
import PropertyList

/// One text format: its reader and writer.
public struct TextFormat: Sendable {
    public let name: String
    public let read: @Sendable (Data, PlistLimits) throws(PlistError) -> PlistValue
    public let write: @Sendable (PlistValue) throws(PlistError) -> Data
    /// What the value read back must equal (the written form may lose what the format cannot say,
    /// such as fractions of a second in an XML date).
    public let normalize: @Sendable (PlistValue) -> PlistValue

    public init(
        name: String, read: @escaping @Sendable (Data, PlistLimits) throws(PlistError) -> PlistValue,
        write: @escaping @Sendable (PlistValue) throws(PlistError) -> Data,
        normalize: @escaping @Sendable (PlistValue) -> PlistValue = { $0 }
    ) {
        self.name = name
        self.read = read
        self.write = write
        self.normalize = normalize
    }
}

/// Runs the oracle on one payload. Readers may only fail with `syntax` or `limitExceeded`, writers
/// only with `unencodable`; error offsets lie inside the text (UTF-16/32 input is transcoded to
/// UTF-8 first, which at most doubles it).
public func checkTextRoundTrip(_ format: TextFormat, _ payload: Data, limits: PlistLimits) {
    let value: PlistValue
    do {
        value = try format.read(payload, limits)
    } catch {
        require(
            error.code == .syntax || error.code == .limitExceeded || error.code == .notABinaryPlist
                || error.code == .notAPropertyList,
            "\(format.name) reader failed with \(error)")
        checkError(error, inputCount: 2 * payload.count + 8)
        return
    }
    let written: Data
    do {
        written = try format.write(value)
    } catch {
        require(error.code == .unencodable, "\(format.name) writer failed with \(error)")
        return
    }
    let back: PlistValue
    do {
        back = try format.read(written, .default)
    } catch {
        require(
            false, "\(format.name) cannot read its own output: \(error)\n\(String(decoding: written, as: UTF8.self))")
        return
    }
    let expected = format.normalize(value)
    // Parsed text is a tree (no shared sub-trees), so the default output budget always suffices.
    let sorted = PlistWriteOptions(sortsKeys: true)
    func json(_ v: PlistValue) -> String {
        (try? v.encoded(as: .json, options: sorted)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
    let (backJSON, expectedJSON) = (json(back), json(expected))
    require(
        !backJSON.isEmpty && backJSON == expectedJSON,
        "\(format.name) round trip changed the value:\n\(expectedJSON)\n!=\n\(backJSON)")
    let again = try? format.write(back)
    require(again == written, "\(format.name) writer is not a fixed point")
}

/// Dates to whole seconds (rounding down), as the XML writer writes them.
public func wholeSecondDates(_ v: PlistValue) -> PlistValue {
    switch v {
    case .date(let d):
        return .date(Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate.rounded(.down)))
    case .array(let a): return .array(a.map(wholeSecondDates))
    case .set(let a): return .array(a.map(wholeSecondDates))
    case .dictionary(let d): return .dictionary(PlistDictionary(d.entries.map { ($0.key, wholeSecondDates($0.value)) }))
    default: return v
    }
}

/// What the text targets read with: the text itself, never a zlib or gzip envelope around it
/// (`PlistValue.decode(from:as:)` would inflate one first; FuzzZlib covers envelopes).
public let textOnly = PlistReadOptions(allowsCompression: false)
