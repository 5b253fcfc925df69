// Sources/PropertyList/OpenStep/XcodeProjectWriter.swift - OpenStep text in the layout Xcode writes
// `project.pbxproj` in, so that a project read and written back without edits is the same bytes, and an
// edit changes only the lines of what it names.
//
// The layout, as Xcode writes it (and as tuist/XcodeProj and CocoaPods' Xcodeproj document it): the
// `// !$*UTF8*$!` header; dictionary keys in byte order, `isa` first; the `objects` dictionary in
// sections (`/* Begin PBXBuildFile section */`), one per `isa` in byte order, objects in the order of
// their ids; `PBXBuildFile`, `PBXFileReference` and `PBXFileSystemSynchronizedRootGroup` objects on
// one line (`{isa = PBXBuildFile; fileRef = … ; };`, arrays `(a, b, )`), everything else one entry a
// line, tabs for indentation; a `/* name */` comment after every object id Xcode comments (the name
// is derived from the objects: a file's name or the last component of its path, "X in Sources" for a
// build file, "Build configuration list for PBXNativeTarget "T"", …); strings unquoted when made of
// letters, digits and `_ $ / : .` only (and not containing `//` or `___`), else quoted with `\"`,
// `\\`, `\n`, `\t` escaped and any other character, non-ASCII included, as it is (UTF-8).
//
// Only the project's name is not in the value (Xcode takes it from the `.xcodeproj` folder and writes
// it in the comment of the project's configuration list); the layout carries it
// (`PlistWriteOptions.OpenStepLayout.xcodeProject(name:)`), and reading a project records it.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

enum XcodeProjectWriter {
    /// The first line of every project file Xcode writes: what tells a project file apart.
    static let header: [UInt8] = Array("// !$*UTF8*$!".utf8)

    /// The `isa`s whose objects Xcode writes on one line.
    static let oneLineKinds: Set<String> = ["PBXBuildFile", "PBXFileReference", "PBXFileSystemSynchronizedRootGroup"]

    /// Keys whose values are object ids that Xcode writes without a comment (ids of another project,
    /// or of a test target named in the attributes).
    static let uncommentedKeys: Set<String> = ["remoteGlobalIDString", "TestTargetID"]

    /// Whether `bytes` (UTF-8 text, after any byte-order mark) starts with Xcode's header line.
    static func hasHeader(_ bytes: some Collection<UInt8>) -> Bool {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard body.starts(with: header) else { return false }
        let rest = body.dropFirst(header.count)
        return rest.first.map { $0 == 0x0A || $0 == 0x0D } ?? true
    }

    /// The project's name as a project file records it: the name in the comment of the project's
    /// build configuration list (`/* Build configuration list for PBXProject "Name" */`), or `nil`.
    static func recordedName(_ bytes: [UInt8]) -> String? {
        let marker = Array("Build configuration list for PBXProject \"".utf8)
        guard let first = marker.first, bytes.count >= marker.count else { return nil }
        var i = 0
        while i + marker.count <= bytes.count {
            if bytes[i] == first && bytes[i..<(i + marker.count)].elementsEqual(marker) {
                let start = i + marker.count
                var end = start
                while end + 3 < bytes.count
                    && !(bytes[end] == UInt8(ascii: "\"") && bytes[end + 1] == 0x20
                        && bytes[end + 2] == UInt8(ascii: "*")
                        && bytes[end + 3] == UInt8(ascii: "/"))
                {
                    if bytes[end] == 0x0A { return nil }
                    end += 1
                }
                guard end + 3 < bytes.count else { return nil }
                return String(decoding: bytes[start..<end], as: UTF8.self)
            }
            i += 1
        }
        return nil
    }

    /// Writes `value` in Xcode's layout into `out`. The caller has checked that every node is one
    /// OpenStep holds (``OpenStepWriter/refuses(_:)``) and the budget.
    static func write(_ value: PlistValue, projectName: String, into out: inout TextSink) throws(PlistError) {
        var writer = Writer(comments: Comments(value, projectName: projectName))
        out.write(header)
        out.write(0x0A)
        try writer.value(value, key: nil, indent: 0, oneLine: false, root: true, into: &out)
        out.write(0x0A)
    }

    /// Byte order of the keys as written, `isa` first.
    static func precedes(_ a: String, _ b: String) -> Bool {
        if a == b { return false }
        if a == "isa" { return true }
        if b == "isa" { return false }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// A dictionary's entries with string keys, in the order Xcode writes them.
    static func sortedEntries(_ d: PlistDictionary) throws(PlistError) -> [(key: String, value: PlistValue)] {
        var entries: [(key: String, value: PlistValue)] = []
        entries.reserveCapacity(d.count)
        for entry in d.entries {
            guard let key = entry.key.stringValue else {
                throw PlistError(
                    .unencodable, "a dictionary has a key of kind \(entry.key.kind); OpenStep keys are strings")
            }
            entries.append((key, entry.value))
        }
        entries.sort { precedes($0.key, $1.key) }
        return entries
    }

    private struct Writer {
        let comments: Comments
        var depth = 0

        mutating func value(
            _ value: PlistValue, key: String?, indent: Int, oneLine: Bool, root: Bool = false, into out: inout TextSink
        ) throws(PlistError) {
            depth += 1
            defer { depth -= 1 }
            guard depth <= PlistLimits.default.maxDepth else {
                throw PlistError(.limitExceeded, "nesting deeper than \(PlistLimits.default.maxDepth) containers")
            }
            switch value {
            case .string(let s):
                let text = s.string
                XcodeProjectWriter.writeString(text, into: &out)
                if let key, !XcodeProjectWriter.uncommentedKeys.contains(key), let comment = comments.byID[text] {
                    writeComment(comment, into: &out)
                }
            case .data(let d):
                out.write(UInt8(ascii: "<"))
                for (k, b) in d.enumerated() {
                    if k > 0 && k % 4 == 0 { out.write(0x20) }
                    out.write(OpenStepWriter.hexDigits[Int(b >> 4)])
                    out.write(OpenStepWriter.hexDigits[Int(b & 0x0F)])
                }
                out.write(UInt8(ascii: ">"))
            case .array(let elements):
                out.write(UInt8(ascii: "("))
                if oneLine {
                    for element in elements {
                        try self.value(element, key: key, indent: indent, oneLine: true, into: &out)
                        out.write(", ")
                    }
                } else {
                    out.write(0x0A)
                    for element in elements {
                        out.write(repeating: 0x09, count: indent + 1)
                        try self.value(element, key: key, indent: indent + 1, oneLine: false, into: &out)
                        out.write(",\n")
                    }
                    out.write(repeating: 0x09, count: indent)
                }
                out.write(UInt8(ascii: ")"))
            case .dictionary(let d):
                try dictionary(d, indent: indent, oneLine: oneLine, root: root, into: &out)
            default:
                throw PlistError(
                    .unencodable, "a \(value.kind) has no OpenStep form (strings, data, arrays and dictionaries only)")
            }
        }

        mutating func dictionary(_ d: PlistDictionary, indent: Int, oneLine: Bool, root: Bool, into out: inout TextSink)
            throws(PlistError)
        {
            let entries = try XcodeProjectWriter.sortedEntries(d)
            out.write(UInt8(ascii: "{"))
            if oneLine {
                for entry in entries {
                    XcodeProjectWriter.writeString(entry.key, into: &out)
                    out.write(" = ")
                    try value(entry.value, key: entry.key, indent: indent, oneLine: true, into: &out)
                    out.write("; ")
                }
                out.write(UInt8(ascii: "}"))
                return
            }
            out.write(0x0A)
            for entry in entries {
                out.write(repeating: 0x09, count: indent + 1)
                XcodeProjectWriter.writeString(entry.key, into: &out)
                out.write(" = ")
                if root, entry.key == "objects", case .dictionary(let objects) = entry.value {
                    try self.objects(objects, indent: indent + 1, into: &out)
                } else {
                    try value(entry.value, key: entry.key, indent: indent + 1, oneLine: false, into: &out)
                }
                out.write(";\n")
            }
            out.write(repeating: 0x09, count: indent)
            out.write(UInt8(ascii: "}"))
        }

        /// The `objects` dictionary: sections by `isa`, objects by id.
        mutating func objects(_ objects: PlistDictionary, indent: Int, into out: inout TextSink) throws(PlistError) {
            var loose: [(key: String, value: PlistValue)] = []
            var sections: [String: [(key: String, value: PlistValue)]] = [:]
            for entry in try XcodeProjectWriter.sortedEntries(objects) {
                if let isa = entry.value.dictionaryValue?["isa"]?.stringValue {
                    sections[isa, default: []].append(entry)
                } else {
                    loose.append(entry)
                }
            }
            out.write("{\n")
            for entry in loose { try object(entry, indent: indent + 1, oneLine: false, into: &out) }
            for isa in sections.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                out.write("\n/* Begin ")
                out.write(isa)
                out.write(" section */\n")
                let oneLine = XcodeProjectWriter.oneLineKinds.contains(isa)
                for entry in sections[isa] ?? [] { try object(entry, indent: indent + 1, oneLine: oneLine, into: &out) }
                out.write("/* End ")
                out.write(isa)
                out.write(" section */\n")
            }
            out.write(repeating: 0x09, count: indent)
            out.write(UInt8(ascii: "}"))
        }

        mutating func object(
            _ entry: (key: String, value: PlistValue), indent: Int, oneLine: Bool, into out: inout TextSink
        )
            throws(PlistError)
        {
            out.write(repeating: 0x09, count: indent)
            XcodeProjectWriter.writeString(entry.key, into: &out)
            if let comment = comments.byID[entry.key] { writeComment(comment, into: &out) }
            out.write(" = ")
            try value(entry.value, key: nil, indent: indent, oneLine: oneLine, into: &out)
            out.write(";\n")
        }

        func writeComment(_ comment: String, into out: inout TextSink) {
            out.write(" /* ")
            out.write(comment)
            out.write(" */")
        }
    }

    /// Unquoted when made of letters, digits and `_ $ / : .` only (and without `//` or `___`), else
    /// quoted, escaping `"`, `\`, newline and tab.
    static func writeString(_ s: String, into out: inout TextSink) {
        let utf8 = s.utf8
        if !utf8.isEmpty && utf8.allSatisfy(isUnquoted) && !s.contains("//") && !s.contains("___") {
            out.write(s)
            return
        }
        out.write(UInt8(ascii: "\""))
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\""): out.write("\\\"")
            case UInt8(ascii: "\\"): out.write("\\\\")
            case 0x0A: out.write("\\n")
            case 0x09: out.write("\\t")
            default: out.write(b)
            }
        }
        out.write(UInt8(ascii: "\""))
    }

    static func isUnquoted(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"),
            UInt8(ascii: ":"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}
