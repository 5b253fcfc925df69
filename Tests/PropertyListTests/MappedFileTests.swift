// Tests/PropertyListTests/MappedFileTests.swift - Documents over memory-mapped files.
//
// The guarantee under test: a mapped file that shrinks while it is read never crashes the process
// (SIGBUS on a page past the new end); the read that touched such a page throws `fileChanged`.

import Foundation
import PropertyList
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's SIGBUS disposition, read and reset through `sigaction` (independently of the
/// library's own record of its guard).
enum SignalDisposition {
    /// Sets SIGBUS to the default action; false where there are no POSIX signals.
    static func resetSigbus() -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            return sigaction(SIGBUS, &action, nil) == 0
        #else
            return false
        #endif
    }

    /// Whether SIGBUS has the default action: no handler function and no `SA_SIGINFO`.
    static func sigbusIsDefault() -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            var current = sigaction()
            guard sigaction(SIGBUS, nil, &current) == 0 else { return false }
            #if canImport(Glibc)
                let handler = current.__sigaction_handler.sa_handler
            #elseif canImport(Musl)
                let handler = current.__sa_handler.sa_handler
            #else
                let handler = current.__sigaction_u.__sa_handler
            #endif
            return handler == nil && current.sa_flags & SA_SIGINFO == 0
        #else
            return true
        #endif
    }
}

// Serialized: one test maps more files than the guard has slots, which would make the maps of the
// others fall back to reading.
@Suite(.serialized) struct MappedFileTests {
    /// A property list of about `strings` × 40 bytes, every string distinct (so spread over pages).
    static func sample(strings: Int) -> PlistValue {
        .array((0..<strings).map { .string("string number \($0) of the sample, padded to length") })
    }

    /// Writes `data` to a new temporary file and returns its URL.
    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mapped-\(UUID().uuidString).bplist")
        try data.write(to: url)
        return url
    }

    @Test func aMappedDocumentReadsWhatAReadOneReads() throws {
        let tree = Self.sample(strings: 5_000)
        let url = try Self.temporaryFile(try BinaryPlistWriter().write(tree))
        defer { try? FileManager.default.removeItem(at: url) }
        let mapped = try BinaryPlistDocument(contentsOf: url, access: .mapped)
        let read = try BinaryPlistDocument(contentsOf: url, access: .read)
        #expect(mapped.isMemoryMapped)
        #expect(!read.isMemoryMapped)
        #expect(try mapped.value() == tree)
        #expect(try mapped.lookup("4321") == .string("string number 4321 of the sample, padded to length"))
        #expect(mapped.data == read.data)
        try mapped.checkFileUnchanged()
    }

    @Test func mappedIfLargeMapsOnlyLargeFiles() throws {
        let small = try Self.temporaryFile(try BinaryPlistWriter().write(["a": 1]))
        let large = try Self.temporaryFile(try BinaryPlistWriter().write(Self.sample(strings: 40_000)))
        defer {
            try? FileManager.default.removeItem(at: small)
            try? FileManager.default.removeItem(at: large)
        }
        #expect(try !BinaryPlistDocument(contentsOf: small, access: .mappedIfLarge).isMemoryMapped)
        let doc = try BinaryPlistDocument(contentsOf: large, access: .mappedIfLarge)
        #expect(doc.data.count >= BinaryPlistDocument.FileAccess.mappingThreshold)
        #expect(doc.isMemoryMapped)
        #expect(try doc.lookup("39999") != nil)
    }

    @Test func theDefaultReadsEvenALargeFile() throws {
        let tree = Self.sample(strings: 40_000)
        let large = try Self.temporaryFile(try BinaryPlistWriter().write(tree))
        defer { try? FileManager.default.removeItem(at: large) }
        let doc = try BinaryPlistDocument(contentsOf: large)
        #expect(doc.data.count >= BinaryPlistDocument.FileAccess.mappingThreshold)
        #expect(!doc.isMemoryMapped)
        #expect(try doc.value() == tree)
    }

    /// In a process of its own (the guard, once installed, stays for the life of the process): the
    /// default access installs no SIGBUS handler, even for a large file and through the archive
    /// reader, and the first map does.
    @Test func openingAFileInstallsNoSignalHandlerUnlessAsked() async {
        await #expect(processExitsWith: .success) {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("no-guard-\(UUID().uuidString).bplist")
            let tree = PlistValue.array((0..<40_000).map { .string("string number \($0) of the sample, padded") })
            try BinaryPlistWriter().write(tree).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            guard SignalDisposition.resetSigbus() else { exit(0) }  // no POSIX signals: nothing to install
            let doc = try BinaryPlistDocument(contentsOf: url)
            _ = try doc.value()
            guard !FileMapping.guardIsInstalled, SignalDisposition.sigbusIsDefault() else { exit(1) }
            guard FileMapping.isAvailable else { exit(0) }
            let mapped = try BinaryPlistDocument(contentsOf: url, access: .mapped)
            guard mapped.isMemoryMapped, FileMapping.guardIsInstalled, !SignalDisposition.sigbusIsDefault() else {
                exit(2)
            }
        }
    }

    @Test func aFileTruncatedWhileMappedIsATypedErrorNotACrash() throws {
        let tree = Self.sample(strings: 5_000)
        let bytes = try BinaryPlistWriter().write(tree)
        let url = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let doc = try BinaryPlistDocument(contentsOf: url, access: .mapped)
        // Shrink the file under the map: every page from byte 8192 on is gone.
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 8_192)
        try handle.close()
        // The header is still there; every object read goes through the offset table, at the end.
        #expect(doc.version == "00")
        do {
            _ = try doc.value()
            Issue.record("reading a truncated mapped file returned a value")
        } catch {
            #expect(error.code == .fileChanged)
            #expect((error.offset ?? 0) >= 8_192)
            #expect((error.offset ?? .max) < bytes.count)
        }
        #expect(throws: PlistError.self) { try doc.checkFileUnchanged() }
        // The document stays usable (no crash) and keeps saying so.
        #expect(throws: PlistError.self) { try doc.lookup("4999") }
    }

    @Test func aFileTruncatedBeforeOpeningIsAFormatError() throws {
        let bytes = try BinaryPlistWriter().write(Self.sample(strings: 2_000))
        let url = try Self.temporaryFile(bytes.prefix(bytes.count / 2))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: PlistError.self) { try BinaryPlistDocument(contentsOf: url, access: .mapped) }
    }

    @Test func manyMapsAtOnceAllRead() throws {
        let tree = Self.sample(strings: 300)
        let url = try Self.temporaryFile(try BinaryPlistWriter().write(tree))
        defer { try? FileManager.default.removeItem(at: url) }
        // More documents than the guard has slots: the rest are read into memory instead.
        let docs = try (0..<300).map { _ in try BinaryPlistDocument(contentsOf: url, access: .mapped) }
        #expect(docs.contains { $0.isMemoryMapped })
        for doc in docs { #expect(try doc.value() == tree) }
    }

    @Test func missingAndNonRegularFilesAreIOErrors() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        #expect { try BinaryPlistDocument(contentsOf: missing) } throws: { ($0 as? PlistError)?.code == .io }
        #expect { try BinaryPlistDocument(contentsOf: FileManager.default.temporaryDirectory) } throws: {
            ($0 as? PlistError)?.code == .io
        }
    }

    @Test func aCompressedFileIsInflatedNotMapped() throws {
        let tree = Self.sample(strings: 1_000)
        let url = try Self.temporaryFile(try BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(tree))
        defer { try? FileManager.default.removeItem(at: url) }
        let doc = try BinaryPlistDocument(contentsOf: url, access: .mapped)
        #expect(!doc.isMemoryMapped)
        #expect(try doc.value() == tree)
    }
}
