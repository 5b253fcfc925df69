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
}
