// Sources/KeyedArchive/KeyedArchiveError.swift - The error type of the keyed layer, and the codes only
// keyed archives meet (the rest of the vocabulary is PlistError.Code's, shared by every module).

public import PropertyList

/// An error from archiving, unarchiving or editing a keyed archive.
///
/// Every error says *what* (``code``) and *where*: the ``keyPath`` of keys from the archive's top
/// level to the failing value, the archived ``className`` and the ``object`` (its UID, the index in
/// `$objects`) when known, the byte ``offset`` when the property-list layer knows it, and a readable
/// ``detail``. Branch and test on ``code``; the detail text may change.
///
/// The codes are `PlistError.Code`'s: one vocabulary for the package, so a truncated file is
/// `truncated` and a UID that names nothing is `badReference` whether the property-list layer or the
/// keyed layer finds it. An error of the property-list layer keeps its code here, and the whole
/// `PlistError` in ``underlying``.
public struct KeyedArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong: `PlistError.Code`, the package's one vocabulary of codes.
    public typealias Code = PlistError.Code

    /// What went wrong.
    public var code: Code
    /// Keys from the archive's top level to the failing value (`root.friends.2.name`).
    public var keyPath: PlistKeyPath
    /// The archived class name involved, when known.
    public var className: String?
    /// The object involved, when known: its UID (index in `$objects`).
    public var object: Int?
    /// The byte offset in the (decompressed) property list, when the property-list layer knows it.
    public var offset: Int?
    /// The property-list layer's error, when it found the failure.
    public var underlying: PlistError?
    /// A readable explanation.
    public var detail: String

    public init(
        _ code: Code, keyPath: PlistKeyPath = .root, className: String? = nil, object: Int? = nil,
        offset: Int? = nil, underlying: PlistError? = nil, _ detail: String
    ) {
        self.code = code
        self.keyPath = keyPath
        self.className = className
        self.object = object
        self.offset = offset
        self.underlying = underlying
        self.detail = detail
    }

    /// An error of `code` at the keys `keys` (each one component, used as it is).
    init(
        _ code: Code, keys: [String], className: String? = nil, object: Int? = nil, _ detail: String
    ) {
        self.init(code, keyPath: PlistKeyPath(keys: keys), className: className, object: object, detail)
    }

    /// A property-list error, with its code, offset and key path kept.
    init(plist error: PlistError, keys: [String] = [], object: Int? = nil) {
        self.init(
            error.code, keyPath: keys.isEmpty ? (error.keyPath ?? .root) : PlistKeyPath(keys: keys), object: object,
            offset: error.offset, underlying: error, error.detail)
    }

    /// Runs `body`, turning what it throws into a ``KeyedArchiveError``: one as it is, a
    /// `PlistError` with its code kept, anything else (an error thrown by the code of a value being
    /// archived) as `unencodable` naming it.
    static func catching<T>(_ body: () throws -> T) throws(KeyedArchiveError) -> T {
        do {
            return try body()
        } catch let error as KeyedArchiveError {
            throw error
        } catch let error as PlistError {
            throw KeyedArchiveError(plist: error)
        } catch {
            throw KeyedArchiveError(.unencodable, "\(error)")
        }
    }

    /// `"classNotAllowed at root.dog (class XWZCat, object 7): …"`.
    public var description: String {
        var s = code.name
        if !keyPath.isEmpty { s += " at " + keyPath.description }
        var extras: [String] = []
        if let className { extras.append("class \(className)") }
        if let object { extras.append("object \(object)") }
        if let offset { extras.append("byte \(offset)") }
        if !extras.isEmpty { s += " (" + extras.joined(separator: ", ") + ")" }
        return s + ": " + detail
    }
}

extension PlistError.Code {
    /// The input is a property list but not a keyed archive: wrong or missing `$archiver`,
    /// `$version`, `$top` or `$objects`.
    public static let notAKeyedArchive = PlistError.Code("notAKeyedArchive")
    /// The archived class maps to a type (registered, or found along its `$classes` or by
    /// `KeyedUnarchiver.unknownClassHandler`) that is not the type the decode asked for, a subclass
    /// of it, or in the allow-list. Raised before any field of the object is read.
    public static let classNotAllowed = PlistError.Code("classNotAllowed")
    /// A class name that maps to no type known to the unarchiver, nor do its superclasses
    /// (`$classes`) or class hints (`$classhints`), and no `KeyedUnarchiver.unknownClassHandler`
    /// chose one. The detail names the class and its chain. Raised before any field is read.
    public static let unknownClass = PlistError.Code("unknownClass")
    /// An edit of a `KeyedArchiveGraph` names a path through an object referenced from more than one
    /// place, and was asked to refuse that (`KeyedArchiveGraph.SharedObjects.reject`).
    public static let sharedObject = PlistError.Code("sharedObject")
}
