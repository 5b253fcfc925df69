// Sources/PropertyList/Value/PlistInteger.swift - The payload of PlistValue.integer: exact 128-bit, 8-byte aligned.
//
// Why not Int128: Int128 is 16-byte aligned, which made PlistValue 16-byte aligned (stride 32) and every
// [PlistValue] buffer an over-aligned allocation (posix_memalign on Linux). Two 8-byte words hold the
// same range with 8-byte alignment, so PlistValue is 17 bytes, stride 24, alignment 8.

/// An exact signed 128-bit integer held as two 64-bit words: the payload of ``PlistValue/integer(_:)``.
///
/// Binary property lists store integers of 1, 2, 4 and 8 bytes, and 16-byte ones read as signed
/// 128-bit values. `PlistInteger` holds that whole range exactly, like `Int128`, but is aligned to
/// 8 bytes instead of 16, which keeps ``PlistValue`` at a 24-byte stride and arrays of values in
/// ordinary allocations. It is a storage type, not an arithmetic one: convert to `Int128`, `Int64`,
/// `Int` or any other integer type to compute.
///
/// ```swift
/// let value: PlistValue = .integer(PlistInteger(Int128(UInt64.max) + 1))
/// if case .integer(let i) = value {
///     Int(exactly: i)  // nil: does not fit
///     i.int128         // 18446744073709551616
/// }
/// ```
///
/// Equality, hashing and ordering are those of the integer value (two's-complement words are unique).
public struct PlistInteger: Sendable, Hashable, Comparable {
    /// The low 64 bits of the value's two's-complement representation.
    public let low: UInt64
    /// The high 64 bits of the value's two's-complement representation (`0` or `-1` for values in
    /// `Int64`'s range).
    public let high: Int64

    /// The integer whose two's-complement representation is `high` followed by `low`.
    ///
    /// - Parameters:
    ///   - high: The high 64 bits, signed.
    ///   - low: The low 64 bits.
    @inlinable
    public init(high: Int64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The integer equal to a 64-bit signed value (no check, no allocation).
    ///
    /// - Parameter value: The value.
    @inlinable
    public init(_ value: Int64) {
        self.init(high: value >> 63, low: UInt64(bitPattern: value))
    }

    /// The integer equal to a signed 128-bit value (always exact).
    ///
    /// - Parameter value: The value.
    @inlinable
    public init(_ value: Int128) {
        self.init(high: Int64(truncatingIfNeeded: value >> 64), low: UInt64(truncatingIfNeeded: value))
    }

    /// The integer equal to `value`, which must lie in the signed 128-bit range.
    ///
    /// Traps when it does not (only a `UInt128` above `Int128.max` or a wider type can be outside).
    /// For values that come from input, use ``init(exactly:)``.
    ///
    /// - Parameter value: The value.
    @inlinable
    public init<T: BinaryInteger>(_ value: T) {
        if let v = Int64(exactly: value) {
            self.init(v)
        } else {
            self.init(Int128(value))
        }
    }

    /// The integer equal to `value`, or `nil` when it lies outside the signed 128-bit range.
    ///
    /// - Parameter value: The value.
    @inlinable
    public init?<T: BinaryInteger>(exactly value: T) {
        if let v = Int64(exactly: value) {
            self.init(v)
        } else if let v = Int128(exactly: value) {
            self.init(v)
        } else {
            return nil
        }
    }

    /// The smallest value, `-2^127` (`Int128.min`).
    @inlinable public static var min: PlistInteger { PlistInteger(high: .min, low: 0) }

    /// The largest value, `2^127 - 1` (`Int128.max`).
    @inlinable public static var max: PlistInteger { PlistInteger(high: .max, low: .max) }

    /// The value as `Int128` (always exact).
    @inlinable
    public var int128: Int128 { Int128(high) << 64 | Int128(low) }

    /// Whether the value lies in `Int64`'s range: the high word is the low word's sign extension.
    @inlinable
    public var fitsInt64: Bool { high == Int64(bitPattern: low) >> 63 }

    /// The value as `Int64`, or `nil` when it does not fit.
    @inlinable
    public var int64: Int64? { fitsInt64 ? Int64(bitPattern: low) : nil }

    /// The value as `UInt64`, or `nil` when it is negative or above `UInt64.max`.
    @inlinable
    public var uint64: UInt64? { high == 0 ? low : nil }

    @inlinable
    public static func == (a: PlistInteger, b: PlistInteger) -> Bool {
        a.low == b.low && a.high == b.high
    }

    @inlinable
    public static func < (a: PlistInteger, b: PlistInteger) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(low)
        hasher.combine(high)
    }
}

extension PlistInteger: ExpressibleByIntegerLiteral {
    /// An integer literal of up to 128 bits.
    ///
    /// - Parameter value: The literal's value.
    @inlinable
    public init(integerLiteral value: Int128) {
        self.init(value)
    }
}

extension PlistInteger: LosslessStringConvertible {
    /// The decimal text of the value, with a leading `-` when negative.
    public var description: String {
        if let v = int64 { return String(v) }
        return String(int128)
    }

    /// Parses decimal text (optionally signed) in the signed 128-bit range, or `nil`.
    ///
    /// - Parameter description: The text, such as `"-42"`.
    public init?(_ description: String) {
        guard let v = Int128(description) else { return nil }
        self.init(v)
    }
}

extension Int128 {
    /// The value of a property-list integer (always exact).
    ///
    /// - Parameter value: The integer.
    @inlinable
    public init(_ value: PlistInteger) {
        self = value.int128
    }
}

extension FixedWidthInteger {
    /// The value of a property-list integer, or `nil` when it does not fit this type.
    ///
    /// - Parameter value: The integer.
    @inlinable
    public init?(exactly value: PlistInteger) {
        if let v = value.int64 {
            self.init(exactly: v)
        } else {
            self.init(exactly: value.int128)
        }
    }
}
