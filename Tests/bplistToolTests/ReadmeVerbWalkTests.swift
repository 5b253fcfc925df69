// Tests/bplistToolTests/ReadmeVerbWalkTests.swift - Every verb of the README's `bplist` tables, run on
// the same document as XML, binary and OpenStep text, and on a keyed archive (issue 32, part 4: one
// tool, one set of rules). Each run's output is checked, not only its exit status; the verbs are read
// from the README, so a verb added there without a walk here fails.

import Foundation
import PropertyList
import Testing

@Suite("bplist: every verb of the README, on XML, binary, OpenStep and keyed-archive inputs", .timeLimit(.minutes(10)))
struct ReadmeVerbWalkTests {
    /// The README at the package root.
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// Every verb a line of a README code block runs (`bplist VERB …`; `a|b` and `… / VERB …` name several).
    static func readmeVerbs() throws -> Set<String> {
        let text = try String(contentsOf: readme, encoding: .utf8)
        var verbs = Set<String>()
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard inBlock, line.hasPrefix("bplist ") else { continue }
            let parts = line.split(separator: " / ")
            for (i, part) in parts.enumerated() {
                let words = part.split(separator: " ")
                let word = i == 0 ? words.dropFirst().first : words.first
                guard let word, !word.hasPrefix("-") else { continue }
                for verb in word.split(separator: "|") { verbs.insert(String(verb)) }
            }
        }
        return verbs
    }

    /// The verbs that read or edit one document, walked on every form.
    static let documentVerbs: Set<String> = [
        "validate", "inspect", "to-json", "convert", "print", "get", "type", "unarchive", "set", "insert",
        "replace", "remove", "append", "edit", "diff", "merge", "textconv", "plutil", "bench",
    ]
    /// The verbs that make a file (or split one), walked once.
    static let makingVerbs: Set<String> = ["from-json", "create", "generate", "split"]

    /// A document every form holds: strings, data, an array and a dictionary.
    static let document: PlistValue = [
        "name": "demo", "tags": ["a", "b"], "settings": ["theme": "light"], "blob": .data(Data([0x00, 0xFF, 0x10])),
    ]

    /// A keyed archive in canonical JSON (`bplist from-json` writes it): a mutable dictionary at the
    /// root with a string, an array, a dictionary and a colour.
    static let archiveJSON = """
        {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": {"$uid": 1}},
         "$objects": ["$null",
          {"$class": {"$uid": 7}, "NS.keys": [{"$uid": 2}, {"$uid": 3}, {"$uid": 4}, {"$uid": 5}],
           "NS.objects": [{"$uid": 6}, {"$uid": 8}, {"$uid": 10}, {"$uid": 12}]},
          "name", "tags", "settings", "tint", "demo",
          {"$classname": "NSMutableDictionary", "$classes": ["NSMutableDictionary", "NSDictionary", "NSObject"]},
          {"$class": {"$uid": 9}, "NS.objects": [{"$uid": 13}, {"$uid": 14}]},
          {"$classname": "NSMutableArray", "$classes": ["NSMutableArray", "NSArray", "NSObject"]},
          {"$class": {"$uid": 7}, "NS.keys": [{"$uid": 15}], "NS.objects": [{"$uid": 16}]},
          {"$classname": "NSColor", "$classes": ["NSColor", "NSObject"]},
          {"$class": {"$uid": 11}, "NSColorSpace": 2, "NSRGB": {"$data": "MSAwLjUgMAA="}},
          "a", "b", "theme", "light"]}
        """

    /// What `textconv` (and `print`) show for ``document``, whatever its form.
    static let documentText = """
        {
          "name" => "demo"
          "tags" => [
            0 => "a"
            1 => "b"
          ]
          "settings" => {
            "theme" => "light"
          }
          "blob" => {length = 3, bytes = 0x00ff10}
        }

        """

    enum Form: String, CaseIterable, CustomStringConvertible {
        case xml, binary, openStep, archive
        var description: String { rawValue }
        /// How `validate -v` and `inspect` name it.
        var reported: String {
            switch self {
            case .xml: "XML"
            case .binary, .archive: "binary"
            case .openStep: "OpenStep text"
            }
        }
        /// The prefix of a key path: an archive's values are under `root`, as `unarchive` prints them.
        var root: String { self == .archive ? "root." : "" }
    }

    /// Runs the tool and remembers the verb.
    final class Walk {
        var verbs = Set<String>()
        let dir: TempDir
        init() throws { dir = try TempDir() }

        @discardableResult
        func run(_ args: [String], status: Int32 = 0, _ comment: Comment? = nil) throws -> ToolResult {
            verbs.insert(args[0])
            let r = try Tool.run(args)
            #expect(
                r.status == status, "\(args.joined(separator: " ")): \(comment?.description ?? "") \(r.stderr)")
            return r
        }

        /// Standard output of a run that succeeds.
        func out(_ args: [String]) throws -> String { try run(args).stdoutText }

        /// A fresh copy of `path` named `name`.
        func copy(_ path: String, _ name: String) throws -> String {
            try dir.write(try Data(contentsOf: URL(fileURLWithPath: path)), name)
        }
    }

    /// The input of `form` in the walk's directory.
    static func input(_ form: Form, walk: Walk) throws -> String {
        let name = "input.\(form)"
        switch form {
        case .xml: return try walk.dir.write(try document.encoded(as: .xml), name)
        case .binary: return try walk.dir.write(try document.encoded(as: .binary), name)
        case .openStep: return try walk.dir.write(try document.encoded(as: .openStep), name)
        case .archive:
            let json = try walk.dir.write(Data(archiveJSON.utf8), "archive.json")
            let path = walk.dir.file(name).path
            try walk.run(["from-json", json, "-o", path])
            return path
        }
    }

    @Test("the README's verbs are the ones walked")
    func readmeVerbsAreWalked() throws {
        let verbs = try Self.readmeVerbs()
        #expect(verbs == Self.documentVerbs.union(Self.makingVerbs), "README: \(verbs.sorted())")
    }

    @Test(arguments: Form.allCases)
    func everyVerb(on form: Form) throws {
        let walk = try Walk()
        let file = try Self.input(form, walk: walk)
        let r = form.root
        let fileArgs = [file]

        // validate, inspect: every form, the form reported; --binary requires the binary form.
        #expect(try walk.out(["validate", "-v"] + fileArgs) == "\(file): OK (\(form.reported))\n")
        let binaryOnly = try walk.run(["validate", "--binary"] + fileArgs, status: form.reported == "binary" ? 0 : 1)
        if form.reported != "binary" {
            #expect(binaryOnly.stderr.hasPrefix("\(file): error: notABinaryPlist at byte 0: "), "\(binaryOnly.stderr)")
        }
        let wrong = try walk.run(["validate", "--form", form == .xml ? "json" : "xml"] + fileArgs, status: 1)
        #expect(wrong.stderr.contains("error: wrongForm at byte 0: "), "\(wrong.stderr)")
        let inspected = try walk.out(["inspect"] + fileArgs)
        #expect(inspected.contains("\nform:        \(form.reported)\n"), "\(inspected)")
        #expect(inspected.contains("\ntree:\n"), "\(inspected)")
        try walk.run(["inspect", "--binary"] + fileArgs, status: form.reported == "binary" ? 0 : 1)

        // Reading: to-json, print, textconv, get, type, unarchive, plutil, bench, convert.
        let json = try walk.out(["to-json"] + fileArgs)
        #expect(
            json.contains(form == .archive ? "\"$archiver\": \"NSKeyedArchiver\"" : "\"theme\": \"light\""), "\(json)")
        let printed = try walk.out(["print", "--no-color"] + fileArgs)
        let text = try walk.out(["textconv"] + fileArgs)
        if form == .archive {
            #expect(printed.contains("\"$archiver\" => \"NSKeyedArchiver\""), "\(printed)")
            #expect(text.contains("\"theme\" => \"light\"") && text.contains("NSColor"), "\(text)")
        } else {
            #expect(printed == Self.documentText)
            #expect(text == Self.documentText)
        }
        #expect(try walk.out(["get"] + fileArgs + ["\(r)settings.theme"]) == "light\n")
        #expect(try walk.out(["get"] + fileArgs + ["\(r)tags.1"]) == "b\n")
        #expect(try walk.out(["get", "--raw"] + fileArgs + ["\(r)tags"]) == "2\n")
        #expect(try walk.out(["get", "--json"] + fileArgs + ["\(r)settings"]) == "{\n \"theme\": \"light\"\n}\n")
        #expect(try walk.out(["type"] + fileArgs + ["\(r)settings.theme"]) == "string\n")
        #expect(try walk.out(["type"] + fileArgs + ["\(r)tags"]) == "array\n")
        let mismatch = try walk.run(["type"] + fileArgs + ["\(r)tags", "--expect", "dictionary"], status: 1)
        #expect(mismatch.stderr == "error: the value at \(r)tags is an array, expected dictionary\n")
        let missing = try walk.run(["get"] + fileArgs + ["\(r)nope"], status: 1)
        #expect(missing.stderr.hasPrefix("error: no value at \(r)nope: "), "\(missing.stderr)")
        let unarchived = try walk.run(["unarchive", "--no-color"] + fileArgs, status: form == .archive ? 0 : 1)
        let lint = try walk.out(["plutil", "-lint"] + fileArgs)
        #expect(lint == "\(file): OK\n")
        // bench times the binary and XML forms (the peers' protocol) and says so for the others.
        let bench = try walk.run(["bench"] + fileArgs + ["1"], status: form == .openStep ? 64 : 0)
        if form == .openStep {
            #expect(bench.stderr.contains("bench times the binary and XML forms"), "\(bench.stderr)")
        } else {
            #expect(bench.stdoutText.contains("\"op\":\"decode\""), "\(bench.stdoutText)")
        }
        let converted = walk.dir.file("converted.json").path
        if form == .archive {
            // An archive has no JSON form (UIDs); as XML it stays an archive, read by the same paths.
            let xml = walk.dir.file("converted.xml").path
            try walk.run(["convert"] + fileArgs + ["--to", "xml", "-o", xml])
            #expect(try walk.out(["validate", "-v", xml]) == "\(xml): OK (XML)\n")
            #expect(try walk.out(["get", xml, "root.settings.theme"]) == "light\n")
            #expect(unarchived.stdoutText.contains("\"theme\" => \"light\""), "\(unarchived.stdoutText)")
            #expect(unarchived.stdoutText.contains("\"tint\" => NSColor"), "\(unarchived.stdoutText)")
            // An object of the graph: 'object' for type, its line as unarchive prints it, its --json.
            #expect(try walk.out(["type", file, "root.tint"]) == "object\n")
            #expect(try walk.out(["get", file, "root.tint"]).hasPrefix("NSColor "))
            #expect(try walk.out(["get", "--json", file, "root.tint"]).contains("\"$class\": \"NSColor\""))
            // The archive's own keys still read the stored property list.
            #expect(try walk.out(["get", file, "$objects.6"]) == "demo\n")
            #expect(try walk.out(["type", file, "$top.root"]) == "uid\n")
        } else {
            try walk.run(["convert"] + fileArgs + ["--to", "json", "-o", converted])
            #expect(try walk.out(["validate", "-v", converted]) == "\(converted): OK (JSON)\n")
            #expect(try walk.out(["to-json", converted]) == json)
            #expect(try walk.out(["get", "--raw"] + fileArgs + ["blob"]) == "AP8Q\n")
            #expect(try walk.out(["type"] + fileArgs + ["blob"]) == "data\n")
            #expect(unarchived.stderr.hasPrefix("error: notAKeyedArchive"), "\(unarchived.stderr)")
        }

        // Editing: each verb on a copy, the result read back, the form kept.
        func edited(_ name: String, _ args: [String]) throws -> String {
            let copy = try walk.copy(file, name)
            try walk.run([args[0], copy] + args.dropFirst())
            #expect(try walk.out(["validate", "-v", copy]) == "\(copy): OK (\(form.reported))\n", "\(args)")
            return copy
        }
        let set = try edited("set", ["set", "\(r)settings.theme", "--string", "dark"])
        #expect(try walk.out(["get", set, "\(r)settings.theme"]) == "dark\n")
        let inserted = try edited("insert", ["insert", "\(r)settings.key", "--hex", "00 ff:10"])
        #expect(try walk.out(["get", "--raw", inserted, "\(r)settings.key"]) == "AP8Q\n")
        let replaced = try edited("replace", ["replace", "\(r)name", "--data", "AP8Q"])
        #expect(try walk.out(["type", replaced, "\(r)name"]) == "data\n")
        #expect(try walk.out(["get", "--raw", replaced, "\(r)name"]) == "AP8Q\n")
        let removed = try edited("remove", ["remove", "\(r)tags.0"])
        #expect(try walk.out(["get", "--json", removed, "\(r)tags"]) == "[\n \"b\"\n]\n")
        let appended = try edited("append", ["append", "\(r)tags", "--string", "c"])
        #expect(try walk.out(["get", appended, "\(r)tags.2"]) == "c\n")
        let edit = try edited("edit", ["edit", "--set", "\(r)name=x", "--remove", "\(r)settings.theme"])
        #expect(try walk.out(["get", edit, "\(r)name"]) == "x\n")
        #expect(try walk.out(["get", "--json", edit, "\(r)settings"]) == "{}\n")
        // A data value that is not base64 says which option takes what.
        let notBase64 = try walk.run(["set", try walk.copy(file, "bad"), "\(r)name", "--data", "00ff10"], status: 1)
        #expect(notBase64.stderr.contains("--data takes base64; --hex takes hexadecimal"), "\(notBase64.stderr)")

        // diff and merge: the set and the append above, from the input as their base.
        let diff = try walk.run(["diff", file, set], status: 1)
        #expect(diff.stdoutText.contains(#""light" -> "dark""#), "\(diff.stdoutText)")
        let merged = walk.dir.file("merged").path
        let merge = try walk.run(["merge", file, set, appended, "-o", merged])
        #expect(merge.stderr.isEmpty, "\(merge.stderr)")
        #expect(try walk.out(["get", merged, "\(r)settings.theme"]) == "dark\n")
        #expect(try walk.out(["get", "--json", merged, "\(r)tags"]) == "[\n \"a\",\n \"b\",\n \"c\"\n]\n")
        #expect(try walk.out(["validate", "-v", merged]) == "\(merged): OK (\(form.reported))\n")

        let walked = walk.verbs.subtracting(Self.makingVerbs)
        #expect(walked == Self.documentVerbs, "not walked: \(Self.documentVerbs.subtracting(walked).sorted())")
    }

    @Test func theVerbsThatMakeFiles() throws {
        let walk = try Walk()
        let json = try walk.dir.write(Data(#"{"k": "v"}"#.utf8), "in.json")
        let made = walk.dir.file("made.bplist").path
        try walk.run(["from-json", json, "-o", made])
        #expect(try walk.out(["get", made, "k"]) == "v\n")

        let created = walk.dir.file("created.plist").path
        try walk.run(["create", created, "--format", "xml"])
        #expect(try walk.out(["validate", "-v", created]) == "\(created): OK (XML)\n")
        #expect(try walk.out(["get", "--raw", created, ""]) == "\n")

        let generated = walk.dir.file("generated.bplist").path
        try walk.run(["generate", "mixed", "--objects", "50", "--out", generated])
        #expect(try walk.out(["validate", "-v", generated]) == "\(generated): OK (binary)\n")
        let messages = walk.dir.file("messages.plist").path
        try walk.run(["generate", "messages", "--objects", "3", "--out", messages])
        #expect(try walk.out(["type", messages, ""]) != "")

        let one = try Data(contentsOf: URL(fileURLWithPath: made))
        let two = try walk.dir.write(one + one, "two.bplist")
        let parts = walk.dir.file("parts")
        try walk.run(["split", two, "-o", parts.path])
        let names = try FileManager.default.contentsOfDirectory(atPath: parts.path).sorted()
        #expect(names == ["two-1.bplist", "two-2.bplist"])
        for name in names {
            #expect(try Data(contentsOf: parts.appendingPathComponent(name)) == one)
        }
        #expect(walk.verbs.isSuperset(of: Self.makingVerbs))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(shell: String) throws {
        let r = try Tool.run(["--generate-completion-script", shell])
        #expect(r.status == 0, "\(r.stderr)")
        let script = r.stdoutText
        // Each names the tool's verbs and the new options.
        for word in ["validate", "inspect", "unarchive", "merge", "textconv", "--hex"] {
            #expect(script.contains(word), "\(shell) completion script lacks \(word)")
        }
        switch shell {
        case "bash": #expect(script.hasPrefix("#!/bin/bash"))
        case "zsh": #expect(script.hasPrefix("#compdef bplist"))
        default: #expect(script.contains("complete -c 'bplist'"))
        }
    }

    /// The man page (`swift package generate-manual`) is made from this dump of the command
    /// definitions: every verb of the README is there with its abstract, and `--data` says base64.
    @Test func theManPageSource() throws {
        let r = try Tool.run(["--experimental-dump-help"])
        #expect(r.status == 0, "\(r.stderr)")
        let dump = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let command = try #require(dump["command"] as? [String: Any])
        let subcommands = try #require(command["subcommands"] as? [[String: Any]])
        var abstracts: [String: String] = [:]
        for sub in subcommands {
            if let name = sub["commandName"] as? String { abstracts[name] = sub["abstract"] as? String ?? "" }
        }
        for verb in try Self.readmeVerbs() {
            #expect(abstracts[verb]?.isEmpty == false, "no abstract for \(verb) in the man page")
        }
        let set = try #require(subcommands.first { $0["commandName"] as? String == "set" })
        let options = try #require(set["arguments"] as? [[String: Any]])
        func help(_ name: String) -> String? {
            options.first { ($0["preferredName"] as? [String: Any])?["name"] as? String == name }?["abstract"]
                as? String
        }
        #expect(help("data")?.contains("base64") == true, "\(help("data") ?? "no --data")")
        #expect(help("hex")?.contains("hexadecimal") == true, "\(help("hex") ?? "no --hex")")
    }
}
