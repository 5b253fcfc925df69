// Sources/KeyedArchive/FoundationValues/NumberErrorTransformValues.swift - NSDecimalNumber,
// NSError, NSAffineTransform, NSPersonNameComponents.
//
// Layouts (keyed):
//   NSDecimalNumber      NS.exponent (int, -128...127), NS.length (int, 0...8: mantissa words
//   (NSDecimalNumber-    used), NS.negative (bool), NS.compact (bool), NS.mantissa.bo (int: 1 when
//   Placeholder)         the words are little-endian, else each word is byte-swapped),
//                        NS.mantissa (16 bytes: eight 16-bit words, least significant first,
//                        unused words zero). $classes NSDecimalNumber, NSNumber, NSValue,
//                        NSObject. Length 0 and negative is NaN.
//   NSError              NSDomain (string), NSCode (integer), NSUserInfo (dictionary; read as empty
//                        when absent or $null, always written).
//   NSAffineTransform    NSTransformStruct: 24 bytes, six big-endian 32-bit floats m11 m12 m21 m22
//                        tX tY; 16 bytes (m11 m22 tX tY) and 9 bytes (a kind byte, 1 translation
//                        or 2 scale, then two floats) are older forms; absent is the identity.
//   NSPersonNameComponents  NS.namePrefix, NS.givenName, NS.middleName, NS.familyName,
//                        NS.nameSuffix, NS.nickname (strings or $null).
// Facts from swift-corelibs-foundation (NSDecimalNumber.swift, NSError.swift,
// NSPersonNameComponents.swift) and GNUstep libs-base (NSAffineTransform.m, NSData.m's float
// serialisation), read, not copied.

import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

// MARK: - NSDecimalNumber ↔ Decimal

extension Decimal: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSDecimalNumber", "NSDecimalNumberPlaceholder"]

    static func fromFields(_ f: ValueFields) -> Decimal? {
        guard let exponent = f.int("NS.exponent"), (-128...127).contains(exponent),
            let length = f.int("NS.length"), (0...8).contains(length),
            let bytes = f.data("NS.mantissa"), bytes.count == 16
        else { return nil }
        let negative = f.int("NS.negative") == 1
        if length == 0 { return negative ? Decimal.nan : Decimal(0) }
        let littleEndian = (f.int("NS.mantissa.bo") ?? 1) == 1
        let b = [UInt8](bytes)
        var mantissa: UInt128 = 0
        for word in stride(from: length - 1, through: 0, by: -1) {
            let (lo, hi) = (UInt128(b[2 * word]), UInt128(b[2 * word + 1]))
            mantissa = mantissa << 16 | (littleEndian ? hi << 8 | lo : lo << 8 | hi)
        }
        guard let significand = Decimal(string: String(mantissa)) else { return nil }
        return Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: significand)
    }

    /// The mantissa words, least significant first (`nil` when the significand is not an integer
    /// below 2^128, which a `Decimal` never holds).
    var archiveMantissa: [UInt16]? {
        guard !isNaN else { return [] }
        var text = significand.description
        if let dot = text.firstIndex(of: ".") {
            guard text[text.index(after: dot)...].allSatisfy({ $0 == "0" }) else { return nil }
            text = String(text[..<dot])
        }
        guard var m = UInt128(text) else { return nil }
        var words: [UInt16] = []
        while m != 0 {
            words.append(UInt16(truncatingIfNeeded: m))
            m >>= 16
        }
        return words
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        guard let words = archiveMantissa, (-128...127).contains(isNaN ? 0 : exponent) else {
            throw KeyedArchiveError(
                .unencodable, className: "NSDecimalNumber", "the Decimal \(self) has no NSDecimalNumber form")
        }
        var mantissa = Data(count: 16)
        for (i, w) in words.enumerated() {
            mantissa[2 * i] = UInt8(w & 0xFF)
            mantissa[2 * i + 1] = UInt8(w >> 8)
        }
        let digits = significand.description
        let fields: [(String, ArchivedValue)] = [
            ("NS.exponent", archiver.inline(isNaN ? 0 : exponent)),
            ("NS.length", archiver.inline(words.count)),
            ("NS.negative", try (isNaN || sign == .minus).encodeArchiveValue(to: archiver)),
            ("NS.compact", try (words.isEmpty || digits.last != "0").encodeArchiveValue(to: archiver)),
            ("NS.mantissa.bo", archiver.inline(1)),
            ("NS.mantissa", try archiver.object(mantissa)),
        ]
        return ("NSDecimalNumber", ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"], fields)
    }
}

// MARK: - NSError

/// An `NSError` as archived: its domain, code and user info.
public struct ArchivedError: Hashable, Sendable {
    /// `NSDomain` (`"NSCocoaErrorDomain"`, `"NSPOSIXErrorDomain"`, …).
    public var domain: String
    /// `NSCode`.
    public var code: Int
    /// `NSUserInfo`: the values by key (`NSLocalizedDescription`, `NSFilePath`, `NSUnderlyingError`, …).
    public var userInfo: [String: AnyArchived]

    /// An error of `domain` and `code`.
    public init(domain: String, code: Int, userInfo: [String: AnyArchived] = [:]) {
        self.domain = domain
        self.code = code
        self.userInfo = userInfo
    }

    /// `NSLocalizedDescription`, when the user info holds one.
    public var localizedDescription: String? {
        if case .string(let s)? = userInfo["NSLocalizedDescription"] { return s }
        return nil
    }
}

extension ArchivedError: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSError"]

    static func fromFields(_ f: ValueFields) -> ArchivedError? {
        guard let domain = f.string("NSDomain"), let code = f.int("NSCode") else { return nil }
        var userInfo: [String: AnyArchived] = [:]
        switch f["NSUserInfo"] {
        case nil, .null?: break
        case .dictionary(let d)?:
            for (key, value) in d {
                // Keys other than strings: not an NSError this type holds (kept as an instance).
                guard case .string(let k) = key else { return nil }
                userInfo[k] = value
            }
        default: return nil
        }
        return ArchivedError(domain: domain, code: code, userInfo: userInfo)
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        // NSUserInfo is always written (Foundation on Linux refuses an NSError without it).
        let d = AnyArchived.dictionary(
            Dictionary(uniqueKeysWithValues: userInfo.map { (AnyArchived.string($0.key), $0.value) }))
        let fields = [
            ("NSDomain", try archiver.object(domain)), ("NSCode", archiver.inline(code)),
            ("NSUserInfo", try archiver.object(d)),
        ]
        return ("NSError", ["NSError", "NSObject"], fields)
    }
}

// MARK: - NSAffineTransform

/// An `NSAffineTransform`: the matrix `[m11 m12 0; m21 m22 0; tX tY 1]`. Archived as 32-bit floats,
/// so values read back rounded to `Float`.
public struct ArchivedAffineTransform: Hashable, Sendable {
    /// Row 1, column 1 (x scale).
    public var m11: Double
    /// Row 1, column 2.
    public var m12: Double
    /// Row 2, column 1.
    public var m21: Double
    /// Row 2, column 2 (y scale).
    public var m22: Double
    /// The x translation.
    public var tX: Double
    /// The y translation.
    public var tY: Double

    /// A transform of these coefficients.
    public init(m11: Double, m12: Double, m21: Double, m22: Double, tX: Double, tY: Double) {
        self.m11 = m11
        self.m12 = m12
        self.m21 = m21
        self.m22 = m22
        self.tX = tX
        self.tY = tY
    }

    /// The identity transform.
    public static let identity = ArchivedAffineTransform(m11: 1, m12: 0, m21: 0, m22: 1, tX: 0, tY: 0)

    /// The six coefficients, in archive order (m11 m12 m21 m22 tX tY).
    public var coefficients: [Double] { [m11, m12, m21, m22, tX, tY] }
}

extension ArchivedAffineTransform: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSAffineTransform"]

    static func fromFields(_ f: ValueFields) -> ArchivedAffineTransform? {
        guard let field = f["NSTransformStruct"] else { return .identity }
        guard case .data(let data) = field else { return nil }
        let b = [UInt8](data)
        func float(at i: Int) -> Double {
            let bits = UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
            return Double(Float(bitPattern: bits))
        }
        var t = ArchivedAffineTransform.identity
        switch b.count {
        case 24:
            (t.m11, t.m12, t.m21, t.m22, t.tX, t.tY) = (
                float(at: 0), float(at: 4), float(at: 8), float(at: 12), float(at: 16), float(at: 20)
            )
        case 16: (t.m11, t.m22, t.tX, t.tY) = (float(at: 0), float(at: 4), float(at: 8), float(at: 12))
        case 9 where b[0] == 1: (t.tX, t.tY) = (float(at: 1), float(at: 5))
        case 9 where b[0] == 2: (t.m11, t.m22) = (float(at: 1), float(at: 5))
        default: return nil
        }
        return t
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        var bytes = Data()
        for c in coefficients {
            let bits = Float(c).bitPattern
            bytes.append(contentsOf: [
                UInt8(bits >> 24), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF),
            ])
        }
        return (
            "NSAffineTransform", ["NSAffineTransform", "NSObject"], [("NSTransformStruct", try archiver.object(bytes))]
        )
    }
}

// MARK: - NSPersonNameComponents

/// An `NSPersonNameComponents` (FoundationEssentials has no `PersonNameComponents` on Linux):
/// the parts of a person's name, each optional.
public struct ArchivedPersonNameComponents: Hashable, Sendable {
    /// `NS.namePrefix` (`"Dr."`).
    public var namePrefix: String?
    /// `NS.givenName`.
    public var givenName: String?
    /// `NS.middleName`.
    public var middleName: String?
    /// `NS.familyName`.
    public var familyName: String?
    /// `NS.nameSuffix` (`"Jr."`).
    public var nameSuffix: String?
    /// `NS.nickname`.
    public var nickname: String?

    /// Name components with these parts.
    public init(
        namePrefix: String? = nil, givenName: String? = nil, middleName: String? = nil, familyName: String? = nil,
        nameSuffix: String? = nil, nickname: String? = nil
    ) {
        self.namePrefix = namePrefix
        self.givenName = givenName
        self.middleName = middleName
        self.familyName = familyName
        self.nameSuffix = nameSuffix
        self.nickname = nickname
    }

    /// The parts with Apple's keys, in archive order.
    static var keys: [(String, WritableKeyPath<ArchivedPersonNameComponents, String?>)] {
        [
            ("NS.namePrefix", \.namePrefix), ("NS.givenName", \.givenName), ("NS.middleName", \.middleName),
            ("NS.familyName", \.familyName), ("NS.nameSuffix", \.nameSuffix), ("NS.nickname", \.nickname),
        ]
    }
}

extension ArchivedPersonNameComponents: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSPersonNameComponents"]

    static func fromFields(_ f: ValueFields) -> ArchivedPersonNameComponents? {
        var c = ArchivedPersonNameComponents()
        let known = Set(keys.map(\.0))
        // A field this type does not hold (a phonetic representation): kept as an instance.
        for (key, value) in f.fields where !known.contains(key) && value != .null { return nil }
        for (key, path) in keys {
            switch f[key] {
            case nil, .null?: continue
            case .string(let s)?: c[keyPath: path] = s
            default: return nil
            }
        }
        return c
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        let fields = try Self.keys.map { key, path in (key, try archiver.object(self[keyPath: path])) }
        return ("NSPersonNameComponents", ["NSPersonNameComponents", "NSObject"], fields)
    }
}
