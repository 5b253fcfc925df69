// Tests/PropertyListTests/OutputBudgetTests.swift - Writers of expanded forms stop at the output budget.

import Foundation
import PropertyList
import Testing

/// The hostile shape of issue 14 (2^40 paths), byte by byte (not through our writer, which would refuse nothing
/// here but lay it out its own way): 41 objects, object i an array holding object i + 1 twice, the
/// last an empty array. 2^40 paths lead to the empty array; written out in full, 2^41 - 1 nodes.
enum DoublingChain {
    static let levels = 41

    static var bytes: Data {
        var out = Data("bplist00".utf8)
        var offsets: [Int] = []
        for i in 0..<levels {
            offsets.append(out.count)
            if i == levels - 1 {
                out.append(0xA0)  // empty array
            } else {
                out.append(contentsOf: [0xA2, UInt8(i + 1), UInt8(i + 1)])  // [next, next], 1-byte refs
            }
        }
        let table = out.count
        for o in offsets { out.append(UInt8(o)) }  // 1-byte offsets: every object starts below 256
        out.append(contentsOf: [UInt8](repeating: 0, count: 6))
        out.append(contentsOf: [1, 1])  // offsetIntSize, objectRefSize
        out.append(contentsOf: bigEndian(UInt64(levels)))
        out.append(contentsOf: bigEndian(0))  // top object
        out.append(contentsOf: bigEndian(UInt64(table)))
        return out
    }

    static func bigEndian(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
}

@Suite struct OutputBudgetTests {
    @Test(
        "the 202-byte doubling chain (2^41 nodes written out) decodes, and every text writer refuses it before writing")
    func doublingChainIsRefused() throws {
        let data = DoublingChain.bytes
        #expect(data.count == 202)  // 8 header + 40 × 3 + 1 objects + 41 offsets + 32 trailer
        let value = try BinaryPlistDocument(data).value()
        let expansion = value.expansion(within: .default)
        #expect(expansion.nodes == OutputBudget.default.maxValues + 1, "stops counting past the budget")
        let errors = [
            #expect(throws: PlistError.self) { try value.canonicalJSON() },
            #expect(throws: PlistError.self) { try XMLPlist.encode(value) },
            #expect(throws: PlistError.self) { try OpenStepPlist.encode(value) },
        ]
        for error in errors {
            #expect(error?.code == .limitExceeded)
            #expect(error?.detail.contains("maxValues") == true)
        }
    }

    @Test("the expansion counts shared sub-trees once per reference, exactly")
    func exactCounts() throws {
        // [x, x, [x]] with x = ["a", "b"]: 1 + 3 + 3 + 1 + 3 = 11 nodes written.
        let x: PlistValue = ["a", "b"]
        let value: PlistValue = [x, x, [x]]
        #expect(value.expansion(within: .default).nodes == 11)
        // A dictionary counts its keys: {"k": x} = 1 + 1 + 3.
        #expect(PlistValue.dictionary(PlistDictionary([(.string("k"), x)])).expansion(within: .default).nodes == 5)
        // Empty containers are not shared storage to memoise: [[], []] is 3 nodes.
        #expect(PlistValue.array([.array([]), .array([])]).expansion(within: .default).nodes == 3)
    }

    @Test("a budget just large enough passes, one node less refuses")
    func budgetBoundary() throws {
        let x: PlistValue = ["a", "b"]
        let value: PlistValue = [x, x, [x]]
        _ = try value.canonicalJSON(budget: OutputBudget(maxValues: 11))
        let error = #expect(throws: PlistError.self) {
            try value.canonicalJSON(budget: OutputBudget(maxValues: 10))
        }
        #expect(error?.code == .limitExceeded)
        let bytes = #expect(throws: PlistError.self) {
            try value.canonicalJSON(budget: OutputBudget(maxValues: 100, maxBytes: 20))
        }
        #expect(bytes?.detail.contains("maxBytes") == true)
    }

    @Test("deep trees are measured without recursion")
    func deepTree() throws {
        // 1,000 levels, as deep as the other writers' tests go (releasing a much deeper value
        // recurses in Swift's own destructors, not in ours).
        var v: PlistValue = "leaf"
        for _ in 0..<1000 { v = [v] }
        #expect(v.expansion(within: .default).nodes == 1001)
    }

    /// Scalars and containers of every kind, strings that need escapes and that do not, keys of every
    /// length: the shapes whose text is shortest against what the budget counts for them.
    static var textProofValues: [PlistValue] {
        let scalars: [PlistValue] = [
            true, false, 0, -1, .integer(PlistInteger(Int64(1) << 62)), 0.5, -0.0,
            .date(Date(timeIntervalSinceReferenceDate: 0)), .uid(7), "", "a",
            "<&>", .string(String(repeating: "é", count: 40)), .data(Data()), .data(Data([1, 2, 3])),
            .data(Data(count: 200)), [], .dictionary(PlistDictionary()),
        ]
        var values = scalars
        values.append(.array(scalars))
        values.append(
            .dictionary(
                PlistDictionary(
                    scalars.enumerated().map { (.string($0.offset == 0 ? "" : "k\($0.offset)"), $0.element) })))
        let shared: PlistValue = .array(scalars)
        values.append([shared, shared, [shared, [shared]]])
        var deep: PlistValue = true
        for _ in 0..<50 { deep = [deep, ""] }
        values.append(deep)
        return values
    }

    @Test("XML text of n bytes has at most n / 7 nodes and a budget estimate of at most 8 n bytes")
    func xmlTextBoundsTheBudget() throws {
        // What lets `XMLPlist.encode` skip measuring a value whose text stays small
        // (`XMLPlistWriter.sizeProvingBudget`).
        for value in Self.textProofValues {
            let text = try XMLPlist.encode(value)
            let size = value.expansion(within: .default)
            #expect(size.nodes * 7 <= text.count, "\(size.nodes) nodes in \(text.count) bytes: \(value)")
            #expect(size.bytes <= 8 * text.count, "an estimate of \(size.bytes) for \(text.count) bytes: \(value)")
        }
        // Each node alone: its text, less the document's header and footer, still bounds it.
        let frame = try XMLPlist.encode([]).count - "<array/>\n".utf8.count
        for value in Self.textProofValues.prefix(18) {
            let own = try XMLPlist.encode([value]).count - frame - "<array>\n</array>\n".utf8.count
            #expect(7 <= own, "\(value) writes \(own) bytes")
            #expect(value.expansion(within: .default).bytes + 2 <= 8 * own, "\(value)")
        }
    }

    @Test("XML encode: a value whose text passes what proves the budget is measured, and refused when over")
    func xmlEncodeMeasuresLongText() throws {
        // maxValues 1,000: text up to 7,000 bytes proves the budget; these are about 19,000.
        let budget = OutputBudget(maxValues: 1_000)
        let within = PlistValue.array(Array(repeating: "x", count: 999))  // 1,000 nodes
        let text = try XMLPlist.encode(within, budget: budget)
        #expect(text.count > 7_000)
        var sink = TextSink.collecting()
        try XMLPlist.write(within, budget: budget, into: &sink)
        let measuredFirst = sink.takeBytes()
        #expect(Array(text) == measuredFirst, "the same text as the writer that measures first")
        let over = PlistValue.array(Array(repeating: "x", count: 1_000))  // 1,001 nodes
        let error = #expect(throws: PlistError.self) { try XMLPlist.encode(over, budget: budget) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.detail.contains("maxValues") == true)
        // By bytes: an estimate of 16 + 6 × 100 per string, 1 MiB refused at 2,000 strings.
        let long = PlistValue.array(Array(repeating: .string(String(repeating: "y", count: 100)), count: 2_000))
        let bytes = #expect(throws: PlistError.self) {
            try XMLPlist.encode(long, budget: OutputBudget(maxValues: 1 << 20, maxBytes: 1 << 20))
        }
        #expect(bytes?.detail.contains("maxBytes") == true)
        _ = try XMLPlist.encode(long, budget: OutputBudget(maxValues: 1 << 20, maxBytes: 2 << 20))
    }

    @Test("XML encode: an over-budget value is refused for the budget even when it holds what XML cannot")
    func xmlEncodeBudgetBeforeUnencodable() throws {
        let budget = OutputBudget(maxValues: 1_000)
        let over = PlistValue.array([.null] + Array(repeating: "x", count: 1_000))
        let error = #expect(throws: PlistError.self) { try XMLPlist.encode(over, budget: budget) }
        #expect(error?.code == .limitExceeded)
        let within = PlistValue.array([.null] + Array(repeating: "x", count: 10))
        let unencodable = #expect(throws: PlistError.self) { try XMLPlist.encode(within, budget: budget) }
        #expect(unencodable?.code == .unencodable)
    }
}
