// Sources/bplist/Archives/UnarchiveNested.swift - keyed archives held in data values, shown as `bplist
// unarchive --json` resolves them (`print`, `to-json --expand-nested`, nested archives in archives).

import KeyedArchive
import PropertyList

extension ArchiveView {
    /// `value` with each nested plist that is an NSKeyedArchiver archive (`["$nested": archive]`, as
    /// `expandingNestedPlists` leaves it) shown as its object graph, as `bplist unarchive --json`
    /// resolves it: typed Foundation and AppKit values (a colour, a font) instead of `$objects`.
    /// An archive that does not resolve is left as its plist.
    static func unarchivingNested(
        _ value: PlistValue, depth: Int = 0, sharedBudget: ArchiveJSON.Budget? = nil
    ) -> PlistValue {
        guard depth < 64 else { return value }
        switch value {
        case .array(let xs):
            return .array(xs.map { unarchivingNested($0, depth: depth + 1, sharedBudget: sharedBudget) })
        case .set(let xs): return .set(xs.map { unarchivingNested($0, depth: depth + 1, sharedBudget: sharedBudget) })
        case .dictionary(let d):
            if d.count == 1, d.entries.first?.key.stringValue == PlistValue.nestedPlistKey,
                let inner = d.entries.first?.value
            {
                let nested = unarchivingNested(inner, depth: depth + 1, sharedBudget: sharedBudget)
                return .dictionary(
                    PlistDictionary([
                        (.string(PlistValue.nestedPlistKey), resolved(nested, sharedBudget: sharedBudget) ?? nested)
                    ]))
            }
            return .dictionary(
                PlistDictionary(
                    d.map { ($0.key, unarchivingNested($0.value, depth: depth + 1, sharedBudget: sharedBudget)) }))
        default:
            return value
        }
    }

    /// The resolved object graph of a keyed archive given as its plist, or nil when it is not one.
    static func resolved(_ archive: PlistValue, sharedBudget: ArchiveJSON.Budget? = nil) -> PlistValue? {
        guard case .string("NSKeyedArchiver")? = archive["$archiver"],
            let binary = try? BinaryPlistWriter().write(archive),
            let graph = try? KeyedArchiveGraph(binary, requiredTopKey: nil)
        else { return nil }
        var view = ArchiveView(graph: graph, maxDepth: 64)
        view.decoder = try? KeyedUnarchiver(forReadingFrom: binary)
        view.structured = true
        view.typedBudget = sharedBudget ?? ArchiveJSON.Budget(OutputBudget.default, inputBytes: binary.count)
        let top = graph.top.map { (key: $0.key, node: view.build($0.value, depth: 0)) }
        guard view.typedError == nil else { return nil }
        if top.count == 1, top[0].key == "root" { return ArchiveView.json(top[0].node) }
        let entries: [PlistDictionary.Element] = top.map {
            (key: PlistValue.string($0.key), value: ArchiveView.json($0.node))
        }
        return .dictionary(PlistDictionary(entries))
    }
}
