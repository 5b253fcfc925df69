// Sources/TypedStream/Reading/TypeEncoding.swift - Type encodings (`i`, `@`, `[12c]`,
// `{CGRect={CGPoint=dd}{CGSize=dd}}`, `(u=ic)`, …) compiled once into a flat list of operations.
//
// Every group of a typedstream starts with a type encoding, a shared string: the same string is
// written once and referenced after. Each distinct encoding is parsed once, when a group first uses
// it, into `TypeOp`s in pre-order (a structure is followed by its fields; `end` is the index after
// its last one), so reading a group is a walk over an array. The parser is iterative (an explicit
// stack), bounded by the encoding's length, which `TypedStreamLimits.maxTypeEncodingLength` bounds.
//
// Facts (from NeXT's typedstream.m as published in Darwin 0.1, read, not copied): `c`, `C` (and `B`)
// are raw bytes; `[Nc]` is N raw bytes; a union is written as the raw bytes of its C layout; `!` is
// an ignored int that takes no bytes; structure names are what precedes `=`, when an `=` comes before
// any bracket.

/// One type of a compiled type encoding.
struct TypeOp: Sendable {
    enum Kind: UInt8, Sendable {
        /// One value of `code` (`c C s S i I l L q Q f d B * % : + # @ !`).
        case scalar
        /// `[Nc]` or `[NC]`: `count` raw bytes.
        case bytes
        /// `[N…]` of another element: the element's ops follow, up to `end`.
        case array
        /// `{name=…}`: the fields' ops follow, up to `end`.
        case structure
        /// `(name=…)`: `count` raw bytes (the members' C layout).
        case union
    }

    var kind: Kind
    /// The type code of a scalar (ASCII); `c` or `C` for bytes; `[`, `{`, `(` otherwise.
    var code: UInt8
    /// Elements of an array or bytes, bytes of a union, fields of a structure.
    var count: Int
    /// The index after this op and its children.
    var end: Int
    /// The fewest bytes a value of this type takes in a stream (saturating at `Int.max`).
    var minSize: Int
    /// The name of a structure or union (index into `TypeTable.names`), or -1.
    var name: Int32
    /// The size and alignment of the C type, for the byte count of a union that holds it.
    var layoutSize: Int
    var layoutAlign: Int
}

/// The compiled type encodings of one stream, by shared-string index.
struct TypeTable: Sendable {
    var ops: [TypeOp] = []
    /// Structure and union names.
    var names: [String] = []
    /// For each shared string compiled as a type encoding: its ops' range in `ops` (start, end);
    /// (-1, -1) when not compiled.
    var programs: [(start: Int, end: Int)] = []

    /// Whether `c` is a scalar type code a stream may hold (`cCsSiIlLqQfdB*%:+#@!`).
    static func isScalar(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "i"),
            UInt8(ascii: "I"), UInt8(ascii: "l"), UInt8(ascii: "L"), UInt8(ascii: "q"), UInt8(ascii: "Q"),
            UInt8(ascii: "f"), UInt8(ascii: "d"), UInt8(ascii: "B"), UInt8(ascii: "*"), UInt8(ascii: "%"),
            UInt8(ascii: ":"), UInt8(ascii: "+"), UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "!"):
            true
        default: false
        }
    }

    /// Compiles `bytes` (the text of shared string `index`) and returns its ops' range.
    mutating func compile(
        _ bytes: Span<UInt8>, range: Range<Int>, index: Int, pointerSize: Int, offset: Int
    ) throws(TypedStreamError) -> (start: Int, end: Int) {
        while programs.count <= index { programs.append((-1, -1)) }
        if programs[index].start >= 0 { return programs[index] }
        let start = ops.count
        do throws(TypeEncodingError) {
            try parse(bytes, range: range, pointerSize: pointerSize)
        } catch {
            ops.removeSubrange(start...)
            var text = ""
            for i in range { text.unicodeScalars.append(Unicode.Scalar(bytes[i])) }
            throw TypedStreamError(.invalidType, offset: offset, "type encoding \"\(text)\": \(error.why)")
        }
        programs[index] = (start, ops.count)
        return (start, ops.count)
    }

    private struct Open {
        var op: Int
        var elements: Int
    }

    /// Why a type encoding does not parse (the caller adds the encoding and where it is).
    struct TypeEncodingError: Error {
        var why: String
    }

    private mutating func parse(
        _ bytes: Span<UInt8>, range: Range<Int>, pointerSize: Int
    ) throws(TypeEncodingError) {
        let fail = { (why: String) -> TypeEncodingError in TypeEncodingError(why: why) }
        guard !range.isEmpty else { throw fail("empty") }
        var open: [Open] = []
        var i = range.lowerBound
        let first = ops.count
        var topLevel = 0
        while i < range.upperBound {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "["):
                i += 1
                var count = 0
                var digits = 0
                while i < range.upperBound, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
                    let (times, o1) = count.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(Int(bytes[i] &- UInt8(ascii: "0")))
                    guard !o1, !o2, sum <= Int(Int32.max) else { throw fail("array count too large") }
                    count = sum
                    digits += 1
                    i += 1
                }
                guard digits > 0 else { throw fail("array without a count") }
                try element(&open, &topLevel)
                open.append(Open(op: ops.count, elements: 0))
                ops.append(
                    TypeOp(
                        kind: .array, code: c, count: count, end: 0, minSize: 0, name: -1, layoutSize: 0, layoutAlign: 1
                    ))
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "("):
                // A name is what precedes `=`, if an `=` comes before any bracket.
                var j = i + 1
                var name: Int32 = -1
                while j < range.upperBound {
                    let d = bytes[j]
                    if d == UInt8(ascii: "=") {
                        var nameBytes: [UInt8] = []
                        for k in i + 1..<j { nameBytes.append(bytes[k]) }
                        names.append(String(decoding: nameBytes, as: UTF8.self))
                        name = Int32(names.count - 1)
                        i = j
                        break
                    }
                    if d == UInt8(ascii: "{") || d == UInt8(ascii: "}") || d == UInt8(ascii: "(")
                        || d == UInt8(ascii: ")") || d == UInt8(ascii: "[") || d == UInt8(ascii: "]")
                    {
                        break
                    }
                    j += 1
                }
                try element(&open, &topLevel)
                open.append(Open(op: ops.count, elements: 0))
                ops.append(
                    TypeOp(
                        kind: c == UInt8(ascii: "{") ? .structure : .union, code: c, count: 0, end: 0, minSize: 0,
                        name: name, layoutSize: 0, layoutAlign: 1))
                i += 1
                continue
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ")"):
                guard let top = open.popLast() else { throw fail("'\(Character(Unicode.Scalar(c)))' closes nothing") }
                let opener = ops[top.op].code
                let matches =
                    (c == UInt8(ascii: "]") && opener == UInt8(ascii: "["))
                    || (c == UInt8(ascii: "}") && opener == UInt8(ascii: "{"))
                    || (c == UInt8(ascii: ")") && opener == UInt8(ascii: "("))
                guard matches else {
                    throw fail("'\(Character(Unicode.Scalar(c)))' closes '\(Character(Unicode.Scalar(opener)))'")
                }
                try close(top, pointerSize: pointerSize, fail: fail)
                i += 1
            default:
                guard TypeTable.isScalar(c) else {
                    throw fail("unsupported type code '\(Character(Unicode.Scalar(c)))'")
                }
                try element(&open, &topLevel)
                let size = TypeTable.cLayout(c, pointerSize: pointerSize)
                ops.append(
                    TypeOp(
                        kind: .scalar, code: c, count: 1, end: ops.count + 1,
                        minSize: c == UInt8(ascii: "!") ? 0 : 1, name: -1, layoutSize: size, layoutAlign: size))
                i += 1
            }
        }
        guard open.isEmpty else { throw fail("unbalanced brackets") }
        guard ops.count > first else { throw fail("empty") }
        _ = topLevel
    }

    /// Counts one more element in the innermost open bracket (an array holds exactly one type).
    private func element(_ open: inout [Open], _ topLevel: inout Int) throws(TypeEncodingError) {
        guard let last = open.indices.last else {
            topLevel += 1
            return
        }
        open[last].elements += 1
        if ops[open[last].op].kind == .array, open[last].elements > 1 {
            throw TypeEncodingError(why: "an array type holds more than one element type")
        }
    }

    /// Finishes an array, structure or union whose children are the ops after `top.op`.
    private mutating func close(
        _ top: Open, pointerSize: Int, fail: (String) -> TypeEncodingError
    ) throws(TypeEncodingError) {
        let index = top.op
        let end = ops.count
        var op = ops[index]
        op.end = end
        switch op.kind {
        case .array:
            guard top.elements == 1 else { throw fail("an array without an element type") }
            let element = ops[index + 1]
            if element.kind == .scalar, element.code == UInt8(ascii: "c") || element.code == UInt8(ascii: "C") {
                // `[Nc]`: raw bytes, one value.
                op.kind = .bytes
                op.code = element.code
                op.end = index + 1
                op.minSize = op.count
                op.layoutSize = op.count
                op.layoutAlign = 1
                ops.removeLast()
            } else {
                let (size, o1) = op.count.multipliedReportingOverflow(by: element.minSize)
                op.minSize = o1 ? .max : size
                let stride = TypeTable.roundUp(element.layoutSize, element.layoutAlign)
                let (layout, o2) = op.count.multipliedReportingOverflow(by: stride)
                guard !o2 else { throw fail("array too large") }
                op.layoutSize = layout
                op.layoutAlign = element.layoutAlign
            }
        case .structure:
            var minSize = 0
            var offset = 0
            var align = 1
            var child = index + 1
            var fields = 0
            while child < end {
                let field = ops[child]
                let (sum, o) = minSize.addingReportingOverflow(field.minSize)
                minSize = o ? .max : sum
                offset = TypeTable.roundUp(offset, field.layoutAlign)
                let (next, o2) = offset.addingReportingOverflow(field.layoutSize)
                guard !o2 else { throw fail("structure too large") }
                offset = next
                align = max(align, field.layoutAlign)
                fields += 1
                child = field.end
            }
            op.count = fields
            op.minSize = minSize
            op.layoutSize = TypeTable.roundUp(offset, align)
            op.layoutAlign = align
        case .union:
            var size = 0
            var align = 1
            var child = index + 1
            while child < end {
                size = max(size, ops[child].layoutSize)
                align = max(align, ops[child].layoutAlign)
                child = ops[child].end
            }
            let bytes = TypeTable.roundUp(size, align)
            guard bytes <= Int(Int32.max) else { throw fail("union too large") }
            op.count = bytes
            op.minSize = bytes
            op.layoutSize = bytes
            op.layoutAlign = align
            op.end = index + 1
            ops.removeSubrange(index + 1..<end)
        case .scalar, .bytes:
            break
        }
        ops[index] = op
    }

    /// The size (and alignment) of a scalar C type as the writer's platform laid it out: `long` is
    /// 4 bytes (typedstream writes `l`/`L` as 32-bit ints), a pointer `pointerSize`.
    static func cLayout(_ code: UInt8, pointerSize: Int) -> Int {
        switch code {
        case UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "B"): 1
        case UInt8(ascii: "s"), UInt8(ascii: "S"): 2
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), UInt8(ascii: "d"): 8
        case UInt8(ascii: "@"), UInt8(ascii: "#"), UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: ":"):
            pointerSize
        default: 4
        }
    }

    /// `value` rounded up to a multiple of `align` (saturating).
    static func roundUp(_ value: Int, _ align: Int) -> Int {
        guard align > 1 else { return value }
        let (sum, o) = value.addingReportingOverflow(align - 1)
        return o ? .max : sum / align * align
    }
}
