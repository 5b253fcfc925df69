// Sources/BenchmarkWorkloads/TypedStreamWriter.swift - A small typedstream writer, for tests, fuzz seeds
// and oracles, and benchmark workloads (not API: this package reads typedstreams; it does not offer
// writing them).
//
// It writes what NeXT's writer writes (typedstream.m, read, not copied): integers in the smallest
// form (one byte for -110…127, then 0x81, 0x82, and 0x87 for 64-bit values), reals as integers when
// they are whole, shared strings and classes once then by reference, C strings uniqued in the object
// table, an object's entry before its class chain. The reader is tested against it; it shares no
// code with the reader (not even the type encodings: `TypeWalk` below reads them on its own).

public import TypedStream

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes a typedstream piece by piece: a group's type encoding, then one value per type.
public struct TypedStreamWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    public let byteOrder: TypedStreamByteOrder
    public let streamerVersion: Int
    private var sharedStrings: [[UInt8]: Int] = [:]
    private var cStrings: [String: Int] = [:]
    /// Object-table labels: the next one, objects' and classes' by number.
    private var nextLabel = 0
    private var objectLabels: [Int] = []
    private var classLabels: [Int: Int] = [:]

    /// A writer that has written the header.
    public init(byteOrder: TypedStreamByteOrder = .littleEndian, streamerVersion: Int = 4, systemVersion: Int = 1000) {
        self.byteOrder = byteOrder
        self.streamerVersion = streamerVersion
        bytes.append(UInt8(truncatingIfNeeded: streamerVersion))
        bytes.append(11)
        bytes += Array((byteOrder == .littleEndian ? "streamtyped" : "typedstream").utf8)
        integer(Int64(systemVersion))
    }

    /// The bytes as `Data`.
    public var data: Data { Data(bytes) }

    /// The number the next new object gets.
    public var nextObjectNumber: Int { objectLabels.count }

    // MARK: - Encodings

    private mutating func fixed(_ value: UInt64, width: Int) {
        for i in 0..<width {
            let shift = byteOrder == .littleEndian ? 8 * i : 8 * (width - 1 - i)
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// An integer in its smallest form.
    public mutating func integer(_ v: Int64) {
        if v >= -110, v <= 127 {
            bytes.append(UInt8(bitPattern: Int8(v)))
        } else if v >= Int64(Int16.min), v <= Int64(Int16.max) {
            bytes.append(0x81)
            fixed(UInt64(UInt16(bitPattern: Int16(v))), width: 2)
        } else if v >= Int64(Int32.min), v <= Int64(Int32.max) {
            bytes.append(0x82)
            fixed(UInt64(UInt32(bitPattern: Int32(v))), width: 4)
        } else {
            bytes.append(0x87)
            fixed(UInt64(bitPattern: v), width: 8)
        }
    }

    /// An unsigned integer of `bits` (16, 32 or 64), written as C writes it: the signed number with
    /// the same bit pattern at that width.
    public mutating func unsignedInteger(_ u: UInt64, bits: Int) {
        switch bits {
        case 16: integer(Int64(Int16(bitPattern: UInt16(truncatingIfNeeded: u))))
        case 32: integer(Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: u))))
        default: integer(Int64(bitPattern: u))
        }
    }

    /// A raw byte (`c`, `C`, `B`).
    public mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// An `f`: an integer when whole (and not -0), else 0x83 and 4 bytes.
    public mutating func float(_ f: Float) {
        if f.isFinite, f == f.rounded(), abs(f) < 2e9, f.sign == .plus || f != 0 {
            integer(Int64(f))
        } else {
            bytes.append(0x83)
            fixed(UInt64(f.bitPattern), width: 4)
        }
    }

    /// A `d`: an integer when whole (and not -0), else 0x83 and 8 bytes.
    public mutating func double(_ d: Double) {
        if d.isFinite, d == d.rounded(), abs(d) < 2e9, d.sign == .plus || d != 0 {
            integer(Int64(d))
        } else {
            bytes.append(0x83)
            fixed(d.bitPattern, width: 8)
        }
    }

    /// A `+` unshared string (nil: 0x85).
    public mutating func unsharedString(_ s: [UInt8]?) {
        guard let s else {
            bytes.append(0x85)
            return
        }
        integer(Int64(s.count))
        bytes += s
    }

    /// A shared string: 0x84 and the string the first time, a reference after (nil: 0x85).
    public mutating func sharedString(_ s: [UInt8]?) {
        guard let s else {
            bytes.append(0x85)
            return
        }
        if let index = sharedStrings[s] {
            integer(Int64(index) - 110)
            return
        }
        sharedStrings[s] = sharedStrings.count
        bytes.append(0x84)
        unsharedString(s)
    }

    /// A group's type encoding.
    public mutating func beginGroup(_ types: String) { sharedString(Array(types.utf8)) }

    /// A `*` C string: uniqued in the object table (nil: 0x85).
    public mutating func cString(_ s: String?) {
        guard let s else {
            bytes.append(0x85)
            return
        }
        if let label = cStrings[s] {
            integer(Int64(label) - 110)
            return
        }
        cStrings[s] = nextLabel
        nextLabel += 1
        bytes.append(0x84)
        sharedString(Array(s.utf8))
    }

    /// A class chain (`#`, or after a new object's 0x84): classes not written yet (by number),
    /// ending with nil or a reference to one written before. `chain` is each class's number, name
    /// and version, the class first.
    public mutating func classChain(_ chain: [(number: Int, name: String, version: Int)]) {
        for c in chain {
            if let label = classLabels[c.number] {
                integer(Int64(label) - 110)
                return
            }
            classLabels[c.number] = nextLabel
            nextLabel += 1
            bytes.append(0x84)
            sharedString(Array(c.name.utf8))
            integer(Int64(c.version))
        }
        bytes.append(0x85)
    }

    /// Begins a new object (0x84, its entry, its class chain); its groups follow, then ``endObject()``.
    /// Returns its number.
    @discardableResult
    public mutating func beginObject(_ chain: [(number: Int, name: String, version: Int)]) -> Int {
        bytes.append(0x84)
        objectLabels.append(nextLabel)
        nextLabel += 1
        classChain(chain)
        if streamerVersion == 3 { integer(0) }
        return objectLabels.count - 1
    }

    /// Ends the innermost object (0x86).
    public mutating func endObject() { bytes.append(0x86) }

    /// A reference to object `number` (begun before).
    public mutating func objectReference(_ number: Int) { integer(Int64(objectLabels[number]) - 110) }

    /// A nil object or class (0x85).
    public mutating func nilValue() { bytes.append(0x85) }

    /// Raw bytes (`[Nc]`, a union, or anything a test wants to place by hand).
    public mutating func raw(_ b: [UInt8]) { bytes += b }
}

extension TypedStreamWriter {
    /// The bytes of `archive`: its groups in order, each object written in full where it is first
    /// named and referenced after, in its own streamer version and byte order. Reading them gives
    /// an archive equal to `archive` when `archive` was read from a stream.
    ///
    /// - Throws: ``TypedStreamError`` `corrupted` when a value names an object that does not follow
    ///   in stream order (not the next one to begin, nor one begun before).
    public static func write(_ archive: TypedStreamArchive) throws(TypedStreamError) -> Data {
        var w = TypedStreamWriter(
            byteOrder: archive.byteOrder, streamerVersion: archive.streamerVersion, systemVersion: archive.systemVersion
        )
        for group in archive.groups { try w.group(group, archive) }
        return w.data
    }

    private mutating func group(_ g: TypedStreamGroup, _ archive: TypedStreamArchive) throws(TypedStreamError) {
        beginGroup(g.types)
        let table = try TypeWalk(g.types)
        var cursor = 0
        for v in g.values {
            guard cursor < table.ops.count else {
                throw TypedStreamError(.corrupted, "group \"\(g.types)\" has more values than types")
            }
            try value(v, table, op: cursor, archive)
            cursor = table.ops[cursor].end
        }
    }

    private mutating func value(_ v: TypedStreamValue, _ table: TypeWalk, op index: Int, _ archive: TypedStreamArchive)
        throws(TypedStreamError)
    {
        let op = table.ops[index]
        switch (v, op.kind) {
        case (.array(let items), .array):
            for item in items { try value(item, table, op: index + 1, archive) }
        case (.structure(_, let fields), .structure):
            var cursor = index + 1
            for f in fields {
                try value(f, table, op: cursor, archive)
                cursor = table.ops[cursor].end
            }
        case (.bytes(let d), .bytes), (.union(let d), .union):
            raw([UInt8](d))
        case (.integer(let i), .scalar):
            if op.code == UInt8(ascii: "c") { byte(UInt8(bitPattern: Int8(truncatingIfNeeded: i))) } else { integer(i) }
        case (.unsignedInteger(let u), .scalar):
            switch op.code {
            case UInt8(ascii: "C"): byte(UInt8(truncatingIfNeeded: u))
            case UInt8(ascii: "S"): unsignedInteger(u, bits: 16)
            case UInt8(ascii: "Q"): unsignedInteger(u, bits: 64)
            default: unsignedInteger(u, bits: 32)
            }
        case (.bool(let b), .scalar): byte(b ? 1 : 0)
        case (.float(let f), .scalar): float(f)
        case (.double(let d), .scalar): double(d)
        case (.string(let d), .scalar): unsharedString(d.map { [UInt8]($0) })
        case (.cString(let s), .scalar): cString(s)
        case (.sharedString(let s), .scalar): sharedString(s.map { Array($0.utf8) })
        case (.ignored, .scalar): break
        case (.class(let c), .scalar):
            guard let c else {
                nilValue()
                return
            }
            classChain(TypedStreamWriter.chain(ofClass: c, archive))
        case (.object(let n), .scalar):
            guard let n else {
                nilValue()
                return
            }
            if n < nextObjectNumber {
                objectReference(n)
                return
            }
            guard n == nextObjectNumber, archive.objects.indices.contains(n) else {
                throw TypedStreamError(.corrupted, object: n, "object \(n) is named before object \(nextObjectNumber)")
            }
            beginObject(TypedStreamWriter.chain(ofClass: archive.objects[n].classNumber, archive))
            for g in archive.objects[n].groups { try group(g, archive) }
            endObject()
        default:
            throw TypedStreamError(
                .corrupted, "a value \(v) where the type encoding has '\(Character(Unicode.Scalar(op.code)))'")
        }
    }

    private static func chain(ofClass number: Int, _ archive: TypedStreamArchive) -> [(
        number: Int, name: String, version: Int
    )] {
        var out: [(number: Int, name: String, version: Int)] = []
        var next: Int? = number
        while let n = next, archive.classes.indices.contains(n), out.count <= archive.classes.count {
            out.append((n, archive.classes[n].name, archive.classes[n].version))
            next = archive.classes[n].superclass
        }
        return out
    }
}

/// A type encoding read for writing, on its own (the reader's compiler is internal to `TypedStream`,
/// and an oracle should not share it): one op per value in pre-order, as the reader reads them. A
/// structure's fields follow it up to `end`, an array's element follows it; `[Nc]` and `[NC]` are one
/// value of raw bytes, and a union is one value of raw bytes (its members are not ops). A structure or
/// union name is what precedes `=`, when an `=` comes before any bracket.
private struct TypeWalk {
    enum Kind { case scalar, bytes, array, structure, union }

    struct Op {
        var kind: Kind
        /// The type code of a scalar (ASCII); `c` or `C` for bytes; `[`, `{`, `(` otherwise.
        var code: UInt8
        /// The index after this op and its children.
        var end: Int
    }

    private(set) var ops: [Op] = []

    /// Reads `types`; an encoding the reader would not accept is `corrupted` (never a trap).
    init(_ types: String) throws(TypedStreamError) {
        let t = Array(types.utf8)
        let fail = { (why: String) in TypedStreamError(.corrupted, "type encoding \"\(types)\": \(why)") }
        var open: [Int] = []
        var i = 0
        while i < t.count {
            let c = t[i]
            switch c {
            case UInt8(ascii: "["):
                i += 1
                let digits = i
                while i < t.count, t[i] >= UInt8(ascii: "0"), t[i] <= UInt8(ascii: "9") { i += 1 }
                guard i > digits else { throw fail("an array without a count") }
                open.append(ops.count)
                ops.append(Op(kind: .array, code: c, end: 0))
            case UInt8(ascii: "{"), UInt8(ascii: "("):
                var j = i + 1
                while j < t.count, !Self.brackets.contains(t[j]), t[j] != UInt8(ascii: "=") { j += 1 }
                i = j < t.count && t[j] == UInt8(ascii: "=") ? j + 1 : i + 1
                open.append(ops.count)
                ops.append(Op(kind: c == UInt8(ascii: "{") ? .structure : .union, code: c, end: 0))
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ")"):
                guard let top = open.popLast() else { throw fail("a bracket that closes nothing") }
                let opener = ops[top].code
                guard
                    (c == UInt8(ascii: "]") && opener == UInt8(ascii: "["))
                        || (c == UInt8(ascii: "}") && opener == UInt8(ascii: "{"))
                        || (c == UInt8(ascii: ")") && opener == UInt8(ascii: "("))
                else { throw fail("mismatched brackets") }
                ops[top].end = ops.count
                switch ops[top].kind {
                case .array:
                    guard ops.count > top + 1, ops[top + 1].end == ops.count else {
                        throw fail("an array holds one element type")
                    }
                    let element = ops[top + 1]
                    if element.kind == .scalar, element.code == UInt8(ascii: "c") || element.code == UInt8(ascii: "C") {
                        ops[top] = Op(kind: .bytes, code: element.code, end: top + 1)
                        ops.removeLast()
                    }
                case .union:
                    ops[top].end = top + 1
                    ops.removeSubrange((top + 1)...)
                default:
                    break
                }
                i += 1
            default:
                ops.append(Op(kind: .scalar, code: c, end: ops.count + 1))
                i += 1
            }
        }
        guard open.isEmpty else { throw fail("unbalanced brackets") }
    }

    private static let brackets: Set<UInt8> = Set("{}()[]".utf8)
}
