// Sources/KeyedArchive/Unarchiving/DecodingState.swift - What the unarchiver keeps while it decodes:
// the frames of the objects being decoded, the class slots and key memos, the instances by UID, the
// two-phase queue and the key path, in one `State` (one exclusivity scope per operation; release
// builds keep it in a `StateCell`), and the state's small mutating operations.

@_spi(Internals) import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension KeyedUnarchiver {
    /// An object's dictionary being decoded. Its reference lists are kept as `RefSpan`s (no document
    /// reference to retain when a frame is pushed, copied or popped).
    struct Frame {
        var keys: RefSpan
        var values: RefSpan
        var uid: Int?
        var className: String?
        /// Where the last key was found: lookups usually follow the encoding order.
        var hint = 0
        /// Index in `State.classSlots` of the object's class (`-1`: none), and lookups made so far:
        /// the class remembers which key object the n-th lookup found.
        var classSlot = -1
        var requests = 0
        /// Where the class's key memos for this object's key count begin in `State.keyMemos` (`-1`:
        /// not chosen yet; KeyLookup.swift).
        var memoBase = -1
        /// Positions (below 64) whose key has been matched: `$class` and the keys found so far.
        var matched: UInt64 = 0
        /// Whether every lookup so far asked the key the layout's memo has at that position.
        var onMemo = true

        init(
            keys: ReferenceList, values: ReferenceList, uid: Int? = nil, className: String? = nil,
            classSlot: Int = -1, classPosition: Int = -1
        ) {
            self.init(
                keys: RefSpan(keys), values: RefSpan(values), uid: uid, className: className, classSlot: classSlot,
                classPosition: classPosition)
        }

        init(
            keys: RefSpan, values: RefSpan, uid: Int? = nil, className: String? = nil, classSlot: Int = -1,
            classPosition: Int = -1
        ) {
            self.keys = keys
            self.values = values
            self.uid = uid
            self.className = className
            self.classSlot = classSlot
            if classPosition >= 0, classPosition < 64 { matched = 1 << UInt64(classPosition) }
        }
    }

    enum PathComponent {
        case key(String)
        case index(Int)
        /// A two-phase object decoded from the queue: the start of its fields' key paths.
        case object(Int)
    }

    struct ClassInfo {
        var name: String
        var chain: [String]
    }

    /// What is memoised per archived class description (by class UID).
    struct ClassSlot {
        var info: ClassInfo
        /// The type `classMap`/the global registry map the name to, for `generation`.
        var mapped: (any KeyedArchivable.Type)?
        var generation = -1
        /// The last candidate type whose own name matched (when nothing is mapped).
        var nameMatch: ObjectIdentifier?
        /// The last resolved type and its two-phase view.
        var lastType: ObjectIdentifier?
        var lastTwoPhase: (any TwoPhaseKeyedArchivable.Type)?
        /// Where objects of this class keep their keys, per key count: the block of `State.keyMemos`
        /// that remembers them (KeyLookup.swift).
        var layouts: [(keyCount: Int, base: Int)] = []
    }

    /// Everything decoding mutates, in one property: one exclusivity check per operation.
    struct State {
        var frames: [Frame]
        var path: [PathComponent] = []
        /// Where the key path of the value being decoded starts in `path` (past the path of the
        /// decode that queued the two-phase object whose fields are being read).
        var pathBase = 0
        var instances: [(any KeyedArchivable)?] = []
        var inProgress: [Bool] = []
        /// Class UID → index in `classSlots` + 1 (0: not seen).
        var classSlotByUID: [Int32] = []
        var classSlots: [ClassSlot] = []
        /// The key memos of every class's layouts (KeyLookup.swift).
        var keyMemos: [KeyMemo] = []
        var pending: [PendingFields] = []
        var pendingHead = 0
        var depth = 0
        var decodedValues = 0
        /// Bumped by `setClass(_:forClassName:)`: invalidates `ClassSlot.mapped`.
        var classMapGeneration = 0
        /// Whether `lentReader` reads the borrowed input (inside a top-level read; LentInput.swift).
        var isLent = false
        /// The last NSArray/NSSet read that had no elements, and its class slot (0: none; see
        /// `isKnownEmptyCollection`).
        var emptyCollectionUID = 0
        var emptyCollectionSlot = 0
        /// `$class`, prepared for comparison (kept here: a static would cost a `swift_once` per object).
        let classKeyProbe = BinaryPlistDocument.KeyProbe(ArchiveVocabulary.classKey)
        /// The `$class` key object last found, and where.
        var classKeyRef: ObjectRef?
        var classKeyHint = 0
        /// The key path of the value being decoded.
        var keyPath: [String] {
            path[min(pathBase, path.count)...].map {
                switch $0 {
                case .key(let k): k
                case .index(let i): String(i)
                case .object(let uid): "<UID \(uid)>"
                }
            }
        }

        var hasPending: Bool { pendingHead < pending.count }

        /// The archived class name of a frame's object (frames of class instances name only their
        /// class slot: no string is copied per object).
        func className(of frame: KeyedUnarchiver.Frame) -> String? {
            if let name = frame.className { return name }
            return frame.classSlot >= 0 ? classSlots[frame.classSlot].info.name : nil
        }

        func error(_ code: KeyedArchiveError.Code, uid: Int? = nil, className: String? = nil, _ detail: String)
            -> KeyedArchiveError
        {
            KeyedArchiveError(
                code, keys: keyPath, className: className ?? frames.last.flatMap(self.className(of:)),
                object: uid ?? frames.last?.uid, detail)
        }

        mutating func allocateTables(_ count: Int) {
            if instances.isEmpty {
                instances = Array(repeating: nil, count: count)
                inProgress = Array(repeating: false, count: count)
            }
        }

        /// Pops the path component pushed for a key or element; `true` when back at `$top`.
        @inline(__always)
        mutating func popPath() -> Bool {
            path.removeLast()
            return frames.count == 1
        }

        /// Counts one decoded value and pushes an element index.
        @inline(__always)
        mutating func beginElement(_ i: Int, limit: Int) throws(KeyedArchiveError) {
            decodedValues &+= 1
            guard decodedValues <= limit else {
                throw error(.limitExceeded, "more than \(limit) values decoded")
            }
            path.append(.index(i))
        }

        /// Pushes `key` and finds it (escaped) in the current frame.
        ///
        /// Objects of one class usually store their keys in the same order, so the class remembers,
        /// for its n-th lookup, the key object found and its position: the next object's lookup
        /// checks that position first (by reference, then, for writers that do not share key strings
        /// such as swift-corelibs-foundation's, with one string comparison), then searches the key
        /// object by reference, and compares strings along the dictionary only when all that fails.
        mutating func lookup(_ key: String, in r: borrowing PlistReader, push: Bool) throws(KeyedArchiveError)
            -> ObjectRef?
        {
            if push { path.append(.key(key)) }
            let top = frames.count &- 1
            do {
                // The frame is searched in place (its reference lists are not copied out), with the
                // class slots and key memos lent alongside: different stored properties of the state.
                return try frames[top].find(key, in: r, classSlots: &classSlots, keyMemos: &keyMemos)
            } catch {
                throw KeyedArchiveError(plist: error, keys: keyPath, object: frames.last?.uid)
            }
        }
    }

    struct PendingFields {
        var uid: Int
        var object: any TwoPhaseKeyedArchivable
        var keys: RefSpan
        var values: RefSpan
        var className: String
        /// The object's class slot and the position of its `$class` key (for the key memo).
        var classSlot = -1
        var classPosition = -1

        init(
            uid: Int, object: any TwoPhaseKeyedArchivable, keys: ReferenceList, values: ReferenceList,
            className: String, classSlot: Int = -1, classPosition: Int = -1
        ) {
            self.init(
                uid: uid, object: object, keys: RefSpan(keys), values: RefSpan(values), className: className,
                classSlot: classSlot, classPosition: classPosition)
        }

        init(
            uid: Int, object: any TwoPhaseKeyedArchivable, keys: RefSpan, values: RefSpan, className: String,
            classSlot: Int, classPosition: Int
        ) {
            self.uid = uid
            self.object = object
            self.keys = keys
            self.values = values
            self.className = className
            self.classSlot = classSlot
            self.classPosition = classPosition
        }
    }
}

extension KeyedUnarchiver.State {
    mutating func addClassSlot(classUID: Int, info: KeyedUnarchiver.ClassInfo, objectCount: Int) -> Int {
        if classSlotByUID.count < objectCount { classSlotByUID = Array(repeating: 0, count: objectCount) }
        classSlots.append(KeyedUnarchiver.ClassSlot(info: info))
        classSlotByUID[classUID] = Int32(truncatingIfNeeded: classSlots.count)
        return classSlots.count &- 1
    }

    /// Pushes the frame of object `uid` (built in place: nothing to copy or destroy).
    mutating func enterObject(
        keys: KeyedUnarchiver.RefSpan, values: KeyedUnarchiver.RefSpan, uid: Int, classSlot: Int, classPosition: Int,
        maxDepth: Int
    ) throws(KeyedArchiveError) {
        guard depth < maxDepth else {
            throw error(.limitExceeded, uid: uid, "objects nested deeper than \(maxDepth) levels")
        }
        depth &+= 1
        inProgress[uid] = true
        frames.append(
            KeyedUnarchiver.Frame(
                keys: keys, values: values, uid: uid, classSlot: classSlot, classPosition: classPosition))
    }

    mutating func leaveObject(uid: Int, instance: (any KeyedArchivable)?) {
        frames.removeLast()
        inProgress[uid] = false
        depth &-= 1
        if let instance { instances[uid] = instance }
    }

    /// Enters the collection at `uid`, one level deeper. A collection that is no object of
    /// `$objects` (an inline array, `uid` -1) is only counted in depth: a cycle through it passes
    /// through a UID, where it is caught.
    mutating func enterCollection(uid: Int, maxDepth: Int, objectCount: Int) throws(KeyedArchiveError) {
        guard depth < maxDepth else {
            throw error(.limitExceeded, uid: uid >= 0 ? uid : nil, "values nested deeper than \(maxDepth) levels")
        }
        allocateTables(objectCount)
        if uid >= 0 && uid < inProgress.count {
            guard !inProgress[uid] else {
                throw error(.cycle, uid: uid, "the collection at UID \(uid) contains itself")
            }
            inProgress[uid] = true
        }
        depth &+= 1
    }

    mutating func leaveCollection(uid: Int) {
        depth &-= 1
        if uid >= 0 && uid < inProgress.count { inProgress[uid] = false }
    }

    mutating func nextPending() -> KeyedUnarchiver.PendingFields? {
        guard pendingHead < pending.count else {
            pending.removeAll(keepingCapacity: true)
            pendingHead = 0
            return nil
        }
        let item = pending[pendingHead]
        pendingHead &+= 1
        return item
    }
}
