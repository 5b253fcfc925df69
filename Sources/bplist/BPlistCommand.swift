import ArgumentParser
import BinaryPlist

@main
struct BPlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bplist", abstract: "Inspect binary property lists.")
}
