// Tests/PropertyListTests/SoakConcurrencyTests.swift - Many tasks reading, editing and replacing the
// same files for a while (issue 31, point 4).
//
// Sixteen tasks share six files (binary, XML, binary in a zlib envelope): readers that map the
// binary files (`BinaryPlistDocument(contentsOf:access: .mapped)`) and keep the map open while the
// file is replaced under it, readers that read any file into memory, editors that read, edit and
// write back in the same form (`PlistValue.Decoded.write(_:to:)`), and writers that replace a file
// with a new version (`PlistValue.write(to:as:compression:)`). Every version of every file is a
// pure function of (file, version), and each file says which version it is, so every read is
// checked against the value it must be: a read that decodes to anything else is a wrong value.
//
// At the end: no error and no wrong value; no descriptor and no map of the test's files left open
// (/proc/self/fd and /proc/self/maps, counted by path, exact even with other tests running in the
// process); no temporary file; and the resident set flat after the warm-up (/proc/self/statm). The
// suite runs 15 s by default (the bounded CI run; its name puts it under ThreadSanitizer too);
// `KEYEDARCHIVE_SOAK_SECONDS=600 scripts/soak` runs it alone for longer (`scripts/soak`), where the
// whole process's descriptor count must also come back to where it was and the RSS bound is tight.

import Foundation
import PropertyList
import Testing

@Suite struct SoakConcurrencyTests {
    static let environment = ProcessInfo.processInfo.environment
    /// How long the tasks run.
    static let seconds = environment["KEYEDARCHIVE_SOAK_SECONDS"].flatMap(Double.init) ?? 15
    /// Run alone (by `scripts/soak`): the process-wide checks are exact.
    static let alone = environment["KEYEDARCHIVE_SOAK_ALONE"] == "1"
    /// Under a sanitizer (scripts/sanitize sets these): its shadow memory and quarantine make RSS
    /// meaningless.
    static let sanitized = environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil

    /// The files: their form and envelope.
    static let forms: [(PlistFormat, PlistCompression)] = [
        (.binary, .none), (.binary, .none), (.binary, .none), (.xml, .none), (.binary, .zlib), (.xml, .none),
    ]

    /// Version `version` of file `file`: about 90 KB, every part depending on both numbers.
    static func expected(file: Int, version: Int) -> PlistValue {
        var d = PlistDictionary()
        d["file"] = .int(file)
        d["version"] = .int(version)
        d["items"] = .array((0..<1500).map { .string("file \(file) version \(version) item \($0)") })
        d["blob"] = .data(Data((0..<32_768).map { UInt8(truncatingIfNeeded: $0 &* (version | 1) &+ file) }))
        return .dictionary(d)
    }

    /// What the tasks share, kept by an actor. ThreadSanitizer sees the order Swift concurrency gives
    /// an actor's work; it did not see `Mutex`'s when the lock was contended (its wait and wake are
    /// outside the instrumented code), and reported a race on the issued versions under the lock.
    actor Shared {
        /// The newest version issued for each file (a file never holds a newer one).
        private var issued: [Int]
        private(set) var stats = Stats()
        /// (seconds since the start, resident bytes).
        private(set) var rss: [(Double, Int)] = []

        init(files: Int) { issued = [Int](repeating: 0, count: files) }

        /// The next version of file `i`.
        func issue(_ i: Int) -> Int {
            issued[i] += 1
            return issued[i]
        }

        /// The newest version issued for file `i`.
        func newest(_ i: Int) -> Int { issued[i] }

        func update(_ body: @Sendable (inout Stats) -> Void) { body(&stats) }

        func sample(_ seconds: Double, _ bytes: Int) { rss.append((seconds, bytes)) }

        func note(_ error: String) { stats.errors.append(error) }
    }

    /// Checks a value read from file `i`: the version it says it is, and exactly that version (compared
    /// outside the actor: the comparison is the work).
    static func check(_ value: PlistValue, _ i: Int, _ how: String, _ shared: Shared) async {
        let newest = await shared.newest(i)
        guard let version = value["version"]?.intValue, version >= 0, version <= newest,
            value == SoakConcurrencyTests.expected(file: i, version: version)
        else {
            let found = "\(value["version"] ?? .null)"
            await shared.update { $0.wrongValues.append("\(how) of file \(i): version \(found)") }
            return
        }
    }

    struct Stats: Sendable {
        var reads = 0
        var mappedReads = 0
        var replacedWhileMapped = 0
        var edits = 0
        var replacements = 0
        var errors: [String] = []
        var wrongValues: [String] = []
    }

    @Test func tasksReadEditAndReplaceTheSameFiles() async throws {
        let dir = try ScratchDirectory("soak")
        let urls = (0..<Self.forms.count).map { URL(fileURLWithPath: dir.file("file\($0).plist")) }
        for (i, url) in urls.enumerated() {
            try Self.expected(file: i, version: 0).write(to: url, as: Self.forms[i].0, compression: Self.forms[i].1)
        }
        let fdsBefore = openDescriptorCount()
        let shared = Shared(files: urls.count)
        let deadline = ContinuousClock.now + .seconds(Self.seconds)
        let start = ContinuousClock.now

        try await withThrowingTaskGroup(of: Void.self) { group in
            // The resident set, four times a second.
            group.addTask {
                repeat {
                    if let bytes = residentBytes() {
                        let d = start.duration(to: .now).components
                        let t = Double(d.seconds) + Double(d.attoseconds) * 1e-18
                        await shared.sample(t, bytes)
                    }
                    try await Task.sleep(for: .milliseconds(250))
                } while ContinuousClock.now < deadline
            }
            for task in 0..<16 {
                group.addTask {
                    var n = task
                    // At least one round each, even when other tests held the cooperative threads
                    // until the deadline.
                    repeat {
                        n &+= 7
                        let i = n % urls.count
                        switch task % 8 {
                        case 0, 1, 2:
                            // Mapped, kept open across a yield while writers replace the file.
                            let binary = Self.forms.indices.filter { Self.forms[$0] == (.binary, .none) }
                            let b = binary[n % binary.count]
                            do {
                                let doc = try BinaryPlistDocument(contentsOf: urls[b], access: .mapped)
                                let version = try doc.lookup("version")?.intValue ?? -1
                                await Task.yield()
                                let value = try doc.value()
                                await Self.check(value, b, "a mapped read", shared)
                                if value["version"]?.intValue != version {
                                    await shared.update { $0.wrongValues.append("a mapped read changed its version") }
                                }
                                let replaced = await shared.newest(b) > version
                                let mapped = doc.isMemoryMapped
                                await shared.update {
                                    $0.reads += 1
                                    if mapped { $0.mappedReads += 1 }
                                    if replaced { $0.replacedWhileMapped += 1 }
                                }
                            } catch {
                                await shared.note("a mapped read of file \(b): \(error)")
                            }
                        case 3, 4:
                            do {
                                let value = try PlistValue.decode(from: Data(contentsOf: urls[i])).value
                                await Self.check(value, i, "a read", shared)
                                await shared.update { $0.reads += 1 }
                            } catch {
                                await shared.note("a read of file \(i): \(error)")
                            }
                        case 5, 6:
                            // Read, edit, write back in the same form.
                            do {
                                let plist = try PlistValue.decode(from: Data(contentsOf: urls[i]))
                                await Self.check(plist.value, i, "an editor's read", shared)
                                #expect(plist.format == Self.forms[i].0 && plist.compression == Self.forms[i].1)
                                let next = await shared.issue(i)
                                let new = Self.expected(file: i, version: next)
                                var edited = plist.value
                                try edited.set(.int(next), at: "version")
                                try edited.set(new["items"] ?? .null, at: "items")
                                try edited.set(new["blob"] ?? .null, at: "blob")
                                try plist.write(edited, to: urls[i])
                                await shared.update { $0.edits += 1 }
                            } catch {
                                await shared.note("an edit of file \(i): \(error)")
                            }
                        default:
                            // A new version written over the file, unread.
                            do {
                                let next = await shared.issue(i)
                                try Self.expected(file: i, version: next).write(
                                    to: urls[i], as: Self.forms[i].0, compression: Self.forms[i].1)
                                await shared.update { $0.replacements += 1 }
                            } catch {
                                await shared.note("a replacement of file \(i): \(error)")
                            }
                        }
                        await Task.yield()
                    } while ContinuousClock.now < deadline
                }
            }
            try await group.waitForAll()
        }

        let result = await shared.stats
        let fdsAfter = openDescriptorCount()
        let ours = Self.descriptorsAndMaps(under: dir.path)
        let samples = await shared.rss
        let total = samples.last?.0 ?? 0
        let warm = samples.count >= 4 ? samples.first { $0.0 >= total * 0.3 }?.1 : nil
        let late = samples.count >= 4 ? samples.filter { $0.0 >= total * 0.8 }.map(\.1).max() : nil
        let peak = samples.map(\.1).max()
        let mib = { (b: Int?) in b.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "not judged" }
        print(
            "soak: \(String(format: "%.0f", total)) s, 16 tasks, \(urls.count) files: \(result.reads) reads "
                + "(\(result.mappedReads) mapped, \(result.replacedWhileMapped) of them replaced while open), "
                + "\(result.edits) edits, \(result.replacements) replacements; \(result.errors.count) errors, "
                + "\(result.wrongValues.count) wrong values; descriptors \(fdsBefore ?? -1) -> \(fdsAfter ?? -1) "
                + "(\(ours.descriptors) on the test's files, \(ours.maps) maps); RSS after warm-up \(mib(warm)), "
                + "late max \(mib(late)), peak \(mib(peak)) (\(samples.count) samples)")

        #expect(result.errors.isEmpty, "\(result.errors.prefix(5))")
        #expect(result.wrongValues.isEmpty, "\(result.wrongValues.prefix(5))")
        #expect(result.reads > 0 && result.edits > 0 && result.replacements > 0)
        if BinaryPlistDocument.FileAccess.mappingIsAvailable { #expect(result.mappedReads > 0) }
        #expect(ours.descriptors == 0, "descriptors of the test's files left open")
        #expect(ours.maps == 0, "maps of the test's files left")
        #expect(dir.entries() == urls.map(\.lastPathComponent).sorted(), "no temporary file left")
        if Self.alone { #expect(fdsBefore == fdsAfter) }
        if !Self.sanitized, let warm, let late {
            // Alone, the process is this test: a flat resident set. In the whole suite, other tests
            // allocate at the same time: the bound only catches a leak that grows with the work.
            let bound = Self.alone ? 32 << 20 : 256 << 20
            #expect(late - warm < bound, "RSS grew from \(mib(warm)) to \(mib(late)) after the warm-up")
        }
        for (i, url) in urls.enumerated() {
            let plist = try PlistValue.decode(from: Data(contentsOf: url))
            await Self.check(plist.value, i, "the last read", shared)
        }
        let wrongAtTheEnd = await shared.stats.wrongValues
        #expect(wrongAtTheEnd.isEmpty)
    }

    /// The descriptors open on, and the maps of, files under `directory` (/proc/self; zeros where
    /// there is none).
    static func descriptorsAndMaps(under directory: String) -> (descriptors: Int, maps: Int) {
        let fm = FileManager.default
        let fds = (try? fm.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let descriptors = fds.filter {
            (try? fm.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))?.hasPrefix(directory) == true
        }
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        return (descriptors.count, maps.split(separator: "\n").filter { $0.contains(directory) }.count)
    }
}
