// Tests/PropertyListTests/InteropTests.swift - Foundation's PropertyListSerialization and Python's plistlib,
// both directions, on generated values.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
@_spi(Internals) import PropertyList
import Testing

/// A PlistValue as the Foundation object graph `PropertyListSerialization` writes.
func foundationObject(_ v: PlistValue) -> Any {
    switch v {
    case .bool(let b): return b
    case .integer(let i):
        if let x = Int64(exactly: i) { return NSNumber(value: x) }
        return NSNumber(value: i.low)
    case .real(let d): return NSNumber(value: d)
    case .date(let d): return d
    case .data(let d): return d
    case .string(let s): return s.string
    case .array(let xs): return xs.map(foundationObject)
    case .dictionary(let d):
        var out: [String: Any] = [:]
        for (k, x) in d.entries { out[k.stringValue ?? ""] = foundationObject(x) }
        return out
    case .null, .uid, .set: return "unsupported"
    }
}

/// A Foundation property-list object as a PlistValue (numbers by their objCType).
func plistValue(fromFoundation x: Any) -> PlistValue? {
    if type(of: x) == Bool.self, let b = x as? Bool { return .bool(b) }
    if let n = x as? NSNumber {
        switch String(cString: n.objCType) {
        case "c", "B": return .bool(n.boolValue)
        case "f", "d": return .real(n.doubleValue)
        case "Q": return .int(n.uint64Value)
        default: return .int(n.int64Value)
        }
    }
    if let s = x as? String { return .string(s) }
    if let d = x as? Data { return .data(d) }
    if let d = x as? Date { return .date(d) }
    if let a = x as? [Any] {
        let xs = a.compactMap(plistValue(fromFoundation:))
        return xs.count == a.count ? .array(xs) : nil
    }
    if let d = x as? [String: Any] {
        var out = PlistDictionary()
        for (k, v) in d {
            guard let pv = plistValue(fromFoundation: v) else { return nil }
            out[k] = pv
        }
        return .dictionary(out)
    }
    return nil
}

@Suite struct FoundationInteropTests {
    @Test func foundationReadsWhatWeWrite() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...Int.max)) { seed in
            var g = PlistGenerator(seed: UInt64(seed), profile: .foundation)
            let v = g.value()
            do {
                let data = try BinaryPlistWriter().write(v)
                let back = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                let difference = plistValue(fromFoundation: back).map { firstDifference(v, $0) } ?? "unconvertible"
                #expect(difference == nil, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func weReadWhatFoundationWrites() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...Int.max)) { seed in
            var g = PlistGenerator(seed: UInt64(seed), profile: .foundation)
            let v = g.value()
            do {
                let data = try PropertyListSerialization.data(
                    fromPropertyList: foundationObject(v), format: .binary,
                    options: 0)
                let difference = firstDifference(v, try decode(data))
                #expect(difference == nil, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func foundationReadsCompactWidths() throws {
        // 70,000 distinct strings: 3-byte references and 3-byte offsets.
        let value = PlistValue.array((0..<70_000).map { .string("s\($0)") })
        let data = try BinaryPlistWriter(widths: .compact).write(value)
        #expect(try BinaryPlistDocument(data).trailer.objectRefSize == 3)
        let back = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String]
        #expect(back?.count == 70_000)
        #expect(back?.last == "s69999")
    }

    @Test func foundationKeepsNegativeZeroThatWeWrite() throws {
        let data = try BinaryPlistWriter().write([.real(0.0), .real(-0.0)])
        let back = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [NSNumber]
        #expect(back?.map { $0.doubleValue.sign } == [.plus, .minus])
    }
}

/// Runs Python's plistlib on `input`; the script reads stdin and writes stdout.
func python(_ script: String, input: Data) throws -> Data {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script]
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    p.standardInput = stdin
    p.standardOutput = stdout
    p.standardError = stderr
    try p.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else {
        throw PlistError(.syntax, "python3 failed: " + String(decoding: err, as: UTF8.self))
    }
    return out
}

@Suite struct PlistlibInteropTests {
    /// plistlib reads a batch of our files and writes each value back in binary; we read those.
    @Test func plistlibReadsWhatWeWriteAndWeReadWhatItWrites() throws {
        let seed = propertySeed()
        var g = PlistGenerator(seed: seed, profile: .plistlib)
        let values = (0..<120).map { _ in g.value() }
        // One property list holding all cases keeps it to one python3 process.
        let batch = PlistValue.array(values)
        let ours = try BinaryPlistWriter().write(batch)
        let script = """
            import plistlib, sys
            v = plistlib.loads(sys.stdin.buffer.read())
            sys.stdout.buffer.write(plistlib.dumps(v, fmt=plistlib.FMT_BINARY, sort_keys=False))
            """
        let theirs = try python(script, input: ours)
        guard case .array(let back) = try decode(theirs) else {
            Issue.record("seed \(seed): plistlib output is not an array")
            return
        }
        #expect(back.count == values.count)
        for (i, (a, b)) in zip(values, back).enumerated() {
            let difference = firstDifference(a, b)
            #expect(difference == nil, "seed \(seed), value \(i)")
        }
    }

    @Test func plistlibReadsCompactWidths() throws {
        let value = PlistValue.array((0..<70_000).map { .string("s\($0)") })
        let data = try BinaryPlistWriter(widths: .compact).write(value)
        #expect(try BinaryPlistDocument(data).trailer.offsetIntSize == 3)
        let script = """
            import plistlib, sys
            v = plistlib.loads(sys.stdin.buffer.read())
            sys.stdout.write("%d %s" % (len(v), v[-1]))
            """
        #expect(String(decoding: try python(script, input: data), as: UTF8.self) == "70000 s69999")
    }

    @Test func plistlibReadsNegativeZeroThatWeWrite() throws {
        let data = try BinaryPlistWriter().write([.real(-0.0), .real(0.0)])
        let script = """
            import plistlib, sys, math
            v = plistlib.loads(sys.stdin.buffer.read())
            sys.stdout.write(" ".join(str(math.copysign(1, x)) for x in v))
            """
        #expect(String(decoding: try python(script, input: data), as: UTF8.self) == "-1.0 1.0")
    }

    @Test func plistlibReadsTheZlibEnvelope() throws {
        let value: PlistValue = ["k": [1, 2, 3], "s": "zlib"]
        let packed = try BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(value)
        let script = """
            import plistlib, sys, zlib
            v = plistlib.loads(zlib.decompress(sys.stdin.buffer.read()))
            sys.stdout.buffer.write(plistlib.dumps(v, fmt=plistlib.FMT_BINARY, sort_keys=False))
            """
        #expect(try decode(python(script, input: packed)) == value)
    }

    @Test func weReadPythonsZlibAndGzip() throws {
        let script = """
            import plistlib, sys, zlib, gzip
            b = plistlib.dumps({"a": [1, 2.5, "x"]}, fmt=plistlib.FMT_BINARY)
            z = zlib.compress(b, 9); g = gzip.compress(b)
            sys.stdout.buffer.write(len(z).to_bytes(4, "big") + z + g)
            """
        let out = try python(script, input: Data())
        let n = Int(out.prefix(4).reduce(0) { $0 << 8 | UInt32($1) })
        let z = out.dropFirst(4).prefix(n)
        let gz = out.dropFirst(4 + n)
        let expected: PlistValue = ["a": [1, 2.5, "x"]]
        let zdoc = try BinaryPlistDocument(Data(z))
        #expect(zdoc.compression == .zlib)
        #expect(try zdoc.value() == expected)
        let gdoc = try BinaryPlistDocument(Data(gz))
        #expect(gdoc.compression == .gzip)
        #expect(try gdoc.value() == expected)
    }
}
