// Sources/bplist/ToJSON.swift - `bplist to-json FILE`: a property list as canonical JSON.

import ArgumentParser
import BinaryPlist

struct ToJSON: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "to-json",
        abstract: "Print a binary property list as canonical JSON.",
        discussion: """
            The rendering is the one of the conformance corpus (CANONICAL-JSON.md): sorted keys, \
            {"$real": ...}, {"$date": ...}, {"$data": base64}, {"$uid": n}, {"$set": [...]}, \
            {"$dict": [[key, value], ...]} for non-string keys, exact integers, null.
            """
    )

    @Argument(help: "The property list to read ('-' for standard input; binary, zlib, gzip, XML, OpenStep or JSON).")
    var file: String

    @OptionGroup var read: ReadOptions

    func execute() throws {
        let data = try IO.read(file)
        IO.printOut(try PlistInput.decode(data, options: read.documentOptions).0.canonicalJSON())
    }
}
