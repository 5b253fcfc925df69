// Sources/KeyedArchive/KeyedArchiveError.swift - The one error type of the keyed coder.

public import PropertyList

/// An error from archiving or unarchiving a keyed archive.
///
/// Every error says *what* (``code``) and *where*: the ``keyPath`` of keys from the root to the
/// failing value, the archived ``className`` and the ``uid`` (index in `$objects`) when known, and a
/// readable ``detail``. Branch and test on ``code``; the detail text may change. Errors of the
/// property-list layer are wrapped with code ``Code/plist`` and kept in ``underlying``.
public struct KeyedArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The input is a property list but not a keyed archive: wrong or missing `$archiver`,
        /// `$version`, `$top` or `$objects`.
        public static let notAKeyedArchive = Code("notAKeyedArchive")
        /// A key that must be present is absent (from an object or from `$top`).
        public static let missingKey = Code("missingKey")
        /// A value has another type than the one asked for (or does not fit it, e.g. an integer
        /// overflowing `Int8`).
        public static let typeMismatch = Code("typeMismatch")
        /// The archived class maps to a type (registered, or found along its `$classes` or by
        /// ``KeyedUnarchiver/unknownClassHandler``) that is not the type the decode asked for, a
        /// subclass of it, or in the allow-list. Raised before any field of the object is read.
        public static let classNotAllowed = Code("classNotAllowed")
        /// A class name that maps to no type known to the unarchiver, nor do its superclasses
        /// (`$classes`) or class hints (`$classhints`), and no ``KeyedUnarchiver/unknownClassHandler``
        /// chose one. The detail names the class and its chain. Raised before any field is read.
        public static let unknownClass = Code("unknownClass")
        /// A UID that points outside `$objects`, or a reference where a UID was required.
        public static let badUID = Code("badUID")
        /// An object is reached again while it is being decoded and its type does not opt into
        /// two-phase decoding (``TwoPhaseKeyedArchivable``).
        public static let cycle = Code("cycle")
        /// A structural defect: `$class` not pointing at a class description, `NS.keys` and
        /// `NS.objects` of different lengths, an object without `$class`, a malformed NSUUID, …
        public static let corrupted = Code("corrupted")
        /// A limit of ``KeyedUnarchiver/Limits`` was exceeded (nesting depth, decoded values).
        public static let limitExceeded = Code("limitExceeded")
        /// The property-list layer failed; see ``KeyedArchiveError/underlying``.
        public static let plist = Code("plist")
        /// A value cannot be archived (e.g. a non-finite value where the format has none), or an
        /// archiver was used after `finishEncoding()`.
        public static let unencodable = Code("unencodable")
        /// Reading or writing a file failed.
        public static let io = Code("io")
        /// An edit of a ``KeyedArchiveGraph`` names a path through an object referenced from more
        /// than one place, and was asked to refuse that (``KeyedArchiveGraph/SharedObjects/reject``).
        public static let sharedObject = Code("sharedObject")
        /// An insertion into a ``KeyedArchiveGraph`` names a key, field or `$top` entry that exists
        /// already (``KeyedArchiveGraph/Edit/set(_:_:)`` replaces one).
        public static let alreadyExists = Code("alreadyExists")
    }

    /// What went wrong.
    public var code: Code
    /// Keys from the archive's top level to the failing value (`["root", "friends", "2", "name"]`).
    public var keyPath: [String]
    /// The archived class name involved, when known.
    public var className: String?
    /// The UID (index in `$objects`) involved, when known.
    public var uid: Int?
    /// The property-list error, for ``Code/plist``.
    public var underlying: PlistError?
    /// A readable explanation.
    public var detail: String

    public init(
        _ code: Code, keyPath: [String] = [], className: String? = nil, uid: Int? = nil,
        underlying: PlistError? = nil, _ detail: String
    ) {
        self.code = code
        self.keyPath = keyPath
        self.className = className
        self.uid = uid
        self.underlying = underlying
        self.detail = detail
    }

    /// Wraps a property-list error.
    init(plist error: PlistError, keyPath: [String] = [], uid: Int? = nil) {
        self.init(.plist, keyPath: keyPath, uid: uid, underlying: error, error.description)
    }

    /// `"classNotAllowed at root.dog (class XWZCat, UID 7): …"`.
    public var description: String {
        var s = code.name
        if !keyPath.isEmpty { s += " at " + keyPath.joined(separator: ".") }
        var extras: [String] = []
        if let className { extras.append("class \(className)") }
        if let uid { extras.append("UID \(uid)") }
        if !extras.isEmpty { s += " (" + extras.joined(separator: ", ") + ")" }
        return s + ": " + detail
    }
}
