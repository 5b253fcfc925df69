// Sources/bplist/TreePrinter.swift - The indented tree of `print` and `get`, written from any PlistTree:
// a decoded value, or a binary document read in place.

import PropertyList

/// Prints a tree as an indented tree like `plutil -p`, without recursion (any depth); one frame per
/// open container, walking its children by position.
///
/// ```
/// {
///   "name" => "Ada"
///   "list" => [
///     0 => 1
///     1 => <set> [
///       0 => "x"
///     ]
///   ]
/// }
/// ```
struct PlistTreePrinter {
    var palette: Palette
    var progress: Progress?
    /// Called for each data value printed as data, with its key path (to report a nested plist that
    /// did not decode).
    var onData: ((PlistValue, [String]) -> Void)?

    init(palette: Palette, progress: Progress? = nil, onData: ((PlistValue, [String]) -> Void)? = nil) {
        self.palette = palette
        self.progress = progress
        self.onData = onData
    }

    private struct Frame<Children> {
        var keys: Children?
        var values: Children
        var next = 0
        var indent: Int
        var close: String
        /// The current child's key path component.
        var component = ""
    }

    /// Prints `value`.
    func print(_ value: PlistValue, into out: inout TextSink) {
        // An owned value reads without errors.
        try? print(PlistValueTree(), value, into: &out)
    }

    /// Prints the tree at `root`.
    func print<T: PlistTree>(_ tree: T, _ root: T.Node, into out: inout TextSink) throws(PlistError) {
        var frames: [Frame<T.Children>] = []
        var lines = 0
        try open(tree, root, prefix: "", indent: 0, into: &out, frames: &frames)
        while !out.isStopped, let top = frames.indices.last {
            lines &+= 1
            if lines & 0xFFF == 0 { progress?.update(done: lines, of: lines + frames.count) }
            let next = frames[top].next
            guard next < frames[top].values.count else {
                let done = frames.removeLast()
                out.line(String(repeating: "  ", count: done.indent) + palette.paint(done.close, .punctuation))
                continue
            }
            frames[top].next += 1
            let indent = frames[top].indent + 1
            let label: String
            if let keys = frames[top].keys {
                let key = try tree.contents(of: keys[next])
                if case .scalar(let k) = key {
                    frames[top].component = k.stringValue ?? "\(k)"
                    if let s = k.stringValue {
                        label = palette.paint(Render.quoted(s), .key)
                    } else {
                        label = Render.scalar(k, palette) ?? palette.paint("<\(k.kind.rawValue) key>", .marker)
                    }
                } else {
                    frames[top].component = "<\(key.kind.rawValue) key>"
                    label = palette.paint("<\(key.kind.rawValue) key>", .marker)
                }
            } else {
                frames[top].component = String(next)
                label = palette.paint(String(next), .punctuation)
            }
            let prefix = String(repeating: "  ", count: indent) + label + palette.paint(" => ", .punctuation)
            try open(tree, frames[top].values[next], prefix: prefix, indent: indent, into: &out, frames: &frames)
        }
    }

    /// Prints a scalar or an empty container on one line; opens the frame of any other container.
    private func open<T: PlistTree>(
        _ tree: T, _ node: T.Node, prefix: String, indent: Int, into out: inout TextSink,
        frames: inout [Frame<T.Children>]
    ) throws(PlistError) {
        let p = palette
        let openText: String
        let close: String
        let keys: T.Children?
        let values: T.Children
        switch try tree.contents(of: node) {
        case .scalar(let v):
            if case .data = v, let onData { onData(v, frames.map(\.component)) }
            out.line(prefix + (Render.scalar(v, p) ?? ""))
            return
        case .array(let children, _):
            (openText, close, keys, values) = ("[", "]", nil, children)
        case .set(let children, _):
            (openText, close, keys, values) = (p.paint("<set>", .marker) + " [", "]", nil, children)
        case .dictionary(let k, let v, _):
            (openText, close, keys, values) = ("{", "}", k, v)
        }
        if values.isEmpty {
            out.line(prefix + p.paint(openText == "{" ? "{}" : openText + "]", .punctuation))
            return
        }
        out.line(prefix + (openText == "{" || openText == "[" ? p.paint(openText, .punctuation) : openText))
        frames.append(Frame(keys: keys, values: values, indent: indent, close: close))
    }
}
