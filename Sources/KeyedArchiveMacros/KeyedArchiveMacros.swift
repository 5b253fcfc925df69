// Sources/KeyedArchiveMacros/KeyedArchiveMacros.swift - `@KeyedArchivable` and its property markers.
//
// The declarations only: the expansion lives in the KeyedArchiveMacrosPlugin target, on
// swift-syntax, which a program that imports `KeyedArchive` alone never builds.

@_exported public import KeyedArchive

/// Generates a class's ``KeyedArchive/KeyedArchivable`` conformance: one `encode(_:forKey:)` and
/// one decode per stored property, in declaration order, as a careful person writes them by hand.
///
/// ```swift
/// @KeyedArchivable("XWZPerson")
/// final class Person {
///     var name: String = ""
///     @ArchiveKey("years") var age: Int = 0            // stored under "years"
///     var dog: Dog?                                    // optional: absent key -> nil
///     var nickname: String = "none"                    // absent in older archives -> the default
///     @ArchiveIgnored var cache: [String: Int] = [:]   // never archived
///     init() {}
/// }
/// ```
///
/// - A stored property with a default value (or an optional `var`) may be absent from the archive
///   (an older version); one without is required, and its absence is a
///   `keyNotFound` error naming it.
/// - A final class with no superclass is decoded in one phase (`init(from:)`), so `let`
///   properties work. With `cycles: true` it adopts ``KeyedArchive/TwoPhaseKeyedArchivable``
///   (`init()`, then the fields), so parent and child may point at each other.
/// - A non-final class, and every subclass of an `@KeyedArchivable` class, is decoded in two phases
///   too: `init()` (required, inherited by subclasses), then `decodeFields(from:)`, which each
///   subclass overrides, calling its superclass's first. `$classes` lists the whole chain:
///   `Cat: Animal` writes `[XWZCat, XWZAnimal, NSObject]`.
///
/// The first type in the inheritance clause is taken as an archivable superclass unless it is a
/// protocol the macro knows (`Sendable`, `Equatable`, `Hashable`, `CustomStringConvertible`, …) or
/// the clause names `KeyedArchivable` itself, which marks the root of a hierarchy.
///
/// - Parameters:
///   - className: The class name written in the archive (`$classname`); default: the Swift type
///     name.
///   - cycles: Whether instances may reach themselves (decode in two phases). Implied for classes
///     in a hierarchy.
@attached(
    member,
    names: named(archiveClassName), named(encode(with:)), named(init(from:)), named(decodeFields(from:)),
    named(init)
)
@attached(extension, conformances: KeyedArchivable, TwoPhaseKeyedArchivable)
public macro KeyedArchivable(_ className: String? = nil, cycles: Bool = false) =
    #externalMacro(module: "KeyedArchiveMacrosPlugin", type: "KeyedArchivableMacro")

/// Stores the property under `key` instead of its name: a rename that keeps old archives readable,
/// or the key an Objective-C class used (`@ArchiveKey("NS.name")`).
@attached(peer)
public macro ArchiveKey(_ key: String) = #externalMacro(module: "KeyedArchiveMacrosPlugin", type: "ArchiveKeyMacro")

/// Leaves the property out of the archive: it keeps its default value when unarchived.
@attached(peer)
public macro ArchiveIgnored() = #externalMacro(module: "KeyedArchiveMacrosPlugin", type: "ArchiveIgnoredMacro")
