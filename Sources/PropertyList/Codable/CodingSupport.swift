// Sources/PropertyList/Codable/CodingSupport.swift - What the package's Codable coders share: the
// coding key of positions and synthetic keys, the text of a coding path, and the one rule that turns
// a stored number into the Swift number type a `Decodable` asks for.
//
// Used by PlistEncoder/PlistDecoder (this folder) and by KeyedArchiveEncoder/KeyedArchiveDecoder
// (Sources/KeyedArchive/Codable), so that both coders name positions, print paths and convert
// numbers the same way.

/// A coding key for array positions and for keys the coders make themselves (`"super"`).
///
/// A position `i` has the string value `"Index i"` and the integer value `i`, as Foundation's coders
/// name them in a `codingPath`.
package struct PlistCodingKey: CodingKey, Sendable, Hashable {
    package var stringValue: String
    package var intValue: Int?

    /// A key with this text and no integer value.
    package init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    /// The key of position `index` of an unkeyed container.
    package init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    package init?(stringValue: String) { self.init(stringValue) }
    package init?(intValue: Int) { self.init(index: intValue) }

    /// The key `superEncoder()` and `superDecoder()` use, as Foundation's coders do.
    package static let superKey = PlistCodingKey("super")
}

/// The text of a coding path for messages: keys joined by dots, positions in brackets, e.g.
/// `items[3].name`; `(root)` for the empty path.
package func describeCodingPath(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "(root)" }
    var text = ""
    for key in path {
        if let index = key.intValue, key.stringValue == "Index \(index)" {
            text += "[\(index)]"
        } else {
            if !text.isEmpty { text += "." }
            text += key.stringValue
        }
    }
    return text
}

// MARK: - Numbers

/// A number as stored: an integer (up to 128 bits), a real or a boolean.
package enum StoredNumber: Sendable, Hashable, CustomStringConvertible {
    case integer(PlistInteger)
    case real(Double)
    case bool(Bool)

    package var description: String {
        switch self {
        case .integer(let i): i.description
        case .real(let d): "\(d)"
        case .bool(let b): b ? "true" : "false"
        }
    }

    /// What the value is, for messages ("an integer").
    package var kindDescription: String {
        switch self {
        case .integer: "an integer"
        case .real: "a real"
        case .bool: "a boolean"
        }
    }
}

/// Why a stored number cannot become the requested type.
package struct NumberConversionFailure: Error, Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// The stored kind is not one the type accepts (a real asked for as `Bool`).
        case typeMismatch
        /// The kind is accepted, but this value is not representable (`300` as `UInt8`, `1.5` as `Int`).
        case outOfRange
    }

    package var kind: Kind
    /// A readable explanation with the number, e.g. `"300 does not fit in UInt8"`.
    package var detail: String
}

/// The one rule for numbers, shared by the property-list and keyed-archive coders:
///
/// - an integer type takes an integer that fits it exactly, a real with an integral value that fits
///   it exactly (`1.0` as `Int`, as Foundation's decoder does), or a boolean as 0 or 1;
/// - `Double` and `Float` take a real or an integer (rounded to the nearest representable value);
///   a finite real beyond `Float`'s range is out of range for `Float` (it would become infinity);
///   infinities and NaN pass through;
/// - `Bool` takes a boolean, or an integer 0 or 1 (how `NSNumber` and `CFPreferences` store booleans).
///
/// Everything else is a type mismatch; a value of an accepted kind that the type cannot hold is out
/// of range (`300` as `UInt8`, `1.5` as `Int`).
package enum NumberConversion {
    /// `number` as the integer type `T`.
    @inline(__always)
    package static func integer<T: FixedWidthInteger>(_ number: StoredNumber, as type: T.Type)
        -> Result<T, NumberConversionFailure>
    {
        switch number {
        case .integer(let i):
            if let v = T(exactly: i) { return .success(v) }
            return .failure(NumberConversionFailure(kind: .outOfRange, detail: "\(i) does not fit in \(T.self)"))
        case .real(let d):
            if d.rounded(.towardZero) == d, let v = T(exactly: d) { return .success(v) }
            return .failure(NumberConversionFailure(kind: .outOfRange, detail: "\(d) does not fit in \(T.self)"))
        case .bool(let b):
            return .success(b ? 1 : 0)
        }
    }

    /// `number` as the floating-point type `T` (`Double` or `Float`).
    @inline(__always)
    package static func floatingPoint<T: BinaryFloatingPoint>(_ number: StoredNumber, as type: T.Type)
        -> Result<T, NumberConversionFailure>
    {
        switch number {
        case .real(let d):
            let v = T(d)
            if v.isInfinite && d.isFinite {
                return .failure(NumberConversionFailure(kind: .outOfRange, detail: "\(d) does not fit in \(T.self)"))
            }
            return .success(v)
        case .integer(let i):
            if let small = i.int64 { return .success(T(small)) }
            return .success(T(Double(i.int128)))
        case .bool:
            return .failure(NumberConversionFailure(kind: .typeMismatch, detail: "expected a number, found a boolean"))
        }
    }

    /// `number` as `Bool`.
    @inline(__always)
    package static func bool(_ number: StoredNumber) -> Result<Bool, NumberConversionFailure> {
        switch number {
        case .bool(let b): return .success(b)
        case .integer(let i) where i == 0 || i == 1: return .success(i == 1)
        case .integer(let i):
            return .failure(
                NumberConversionFailure(kind: .typeMismatch, detail: "expected a boolean, found the integer \(i)"))
        case .real(let d):
            return .failure(
                NumberConversionFailure(kind: .typeMismatch, detail: "expected a boolean, found the real \(d)"))
        }
    }

    /// Whether `type` is one of the types this rule converts to: the standard library's integer types,
    /// `Double`, `Float` and `Bool`.
    package static func handles(_ type: Any.Type) -> Bool {
        type == Int.self || type == Double.self || type == Bool.self || type == Int64.self || type == Float.self
            || type == Int32.self || type == UInt64.self || type == UInt32.self || type == Int8.self
            || type == UInt8.self || type == Int16.self || type == UInt16.self || type == UInt.self
            || type == Int128.self || type == UInt128.self
    }

    /// `number` as `T`, when `T` is one of the standard library's number types or `Bool`; `nil` for
    /// any other type.
    package static func convert<T>(_ number: StoredNumber, to type: T.Type) -> Result<T, NumberConversionFailure>? {
        func cast<V>(_ r: Result<V, NumberConversionFailure>) -> Result<T, NumberConversionFailure>? {
            switch r {
            case .success(let v): return (v as? T).map { .success($0) }
            case .failure(let f): return .failure(f)
            }
        }
        switch type {
        case is Int.Type: return cast(integer(number, as: Int.self))
        case is Int8.Type: return cast(integer(number, as: Int8.self))
        case is Int16.Type: return cast(integer(number, as: Int16.self))
        case is Int32.Type: return cast(integer(number, as: Int32.self))
        case is Int64.Type: return cast(integer(number, as: Int64.self))
        case is Int128.Type: return cast(integer(number, as: Int128.self))
        case is UInt.Type: return cast(integer(number, as: UInt.self))
        case is UInt8.Type: return cast(integer(number, as: UInt8.self))
        case is UInt16.Type: return cast(integer(number, as: UInt16.self))
        case is UInt32.Type: return cast(integer(number, as: UInt32.self))
        case is UInt64.Type: return cast(integer(number, as: UInt64.self))
        case is UInt128.Type: return cast(integer(number, as: UInt128.self))
        case is Double.Type: return cast(floatingPoint(number, as: Double.self))
        case is Float.Type: return cast(floatingPoint(number, as: Float.self))
        case is Bool.Type: return cast(bool(number))
        default: return nil
        }
    }

    /// The `DecodingError` for a failed conversion to `type` at `codingPath`, keeping `underlying`
    /// (the coder's located error) when given: `typeMismatch` or, for a value out of range,
    /// `dataCorrupted` (as Foundation's decoders report `300` as `UInt8`).
    package static func decodingError(
        _ failure: NumberConversionFailure, type: Any.Type, codingPath: [any CodingKey], underlying: (any Error)?
    ) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: codingPath, debugDescription: failure.detail, underlyingError: underlying)
        switch failure.kind {
        case .typeMismatch: return DecodingError.typeMismatch(type, context)
        case .outOfRange: return DecodingError.dataCorrupted(context)
        }
    }
}

/// The answer to a question about a type (does it conform to a protocol), kept for the last type asked:
/// a conformance check costs hundreds of instructions, and a model asks about the same type in a row
/// (each element of an array, each value of a dictionary). Every coder's state holds one.
struct TypeMemo {
    private var lastType: ObjectIdentifier? = nil
    private var lastAnswer = false

    /// `question(type)`, asked only when `type` is not the last type asked about.
    @inline(__always)
    mutating func answer(for type: Any.Type, _ question: (Any.Type) -> Bool) -> Bool {
        let id = ObjectIdentifier(type)
        if lastType == id { return lastAnswer }
        let answer = question(type)
        lastType = id
        lastAnswer = answer
        return answer
    }
}
