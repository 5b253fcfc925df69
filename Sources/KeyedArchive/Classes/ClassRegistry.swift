// Sources/KeyedArchive/Classes/ClassRegistry.swift - Global class-name mappings, both directions.

import Synchronization

/// Process-wide class-name mappings, consulted after an archiver's or unarchiver's own mapping
/// (instance mapping first, as Foundation does). Thread-safe.
final class ClassRegistry: Sendable {
    static let shared = ClassRegistry()

    private let archiveNames = Mutex<[ObjectIdentifier: String]>([:])
    private let unarchiveTypes = Mutex<[String: any KeyedArchivable.Type]>([:])
    /// Bumped on every change of the unarchiving map, so unarchivers can cache resolved types.
    private let unarchiveGeneration = Atomic<Int>(0)

    /// The number of changes made to the unarchiving map so far.
    var typeGeneration: Int { unarchiveGeneration.load(ordering: .acquiring) }

    func setClassName(_ name: String?, for type: any KeyedArchivable.Type) {
        archiveNames.withLock { $0[ObjectIdentifier(type)] = name }
    }

    func className(for type: any KeyedArchivable.Type) -> String? {
        archiveNames.withLock { $0[ObjectIdentifier(type)] }
    }

    func setClass(_ type: (any KeyedArchivable.Type)?, forClassName name: String) {
        unarchiveTypes.withLock { $0[name] = type }
        unarchiveGeneration.add(1, ordering: .releasing)
    }

    func type(forClassName name: String) -> (any KeyedArchivable.Type)? {
        unarchiveTypes.withLock { $0[name] }
    }
}
