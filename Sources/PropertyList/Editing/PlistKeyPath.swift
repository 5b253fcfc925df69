// Sources/PropertyList/Editing/PlistKeyPath.swift - The one key-path type: lookup, editing and decoding
// name a value inside a property list with it.
//
// Two text forms are read, the two that Apple's command-line tools use:
//   plutil       a.b.0.c      components separated by '.', `\.` for a dot inside a key
//   PlistBuddy   :a:b:0:c     components after ':', `\:` for a colon inside a key (our extension)
// A path built from components never needs escaping; its text (`description`) is the plutil form.

/// A path to a value inside a property list: the dictionary keys and array positions that lead to it
/// from the root.
///
/// ```swift
/// let version: PlistKeyPath = "CFBundleVersion"                          // plutil's form
/// let sandbox: PlistKeyPath = "com\\.apple\\.security\\.app-sandbox"     // `\.` is a dot in a key
/// let scheme = PlistKeyPath(["CFBundleURLTypes", 0, "CFBundleURLSchemes", 0])   // components: no escaping
/// let person: PlistKeyPath = "people.\(i).\(key)"       // interpolated values are never split
/// let typed = PlistKeyPath(parsing: commandLineArgument)  // text read at run time: plutil's or PlistBuddy's
/// let same = try PlistKeyPath(plistBuddy: ":CFBundleURLTypes:0:CFBundleURLSchemes:0")
/// try info.set("42", at: version)
/// let value = try document.lookup(scheme)
/// ```
///
/// **What a component means** depends on the container it is applied to, as in `plutil`: in a
/// dictionary it is a string key; in an array (or a set) it is a decimal position, so the component
/// `"0"` and the component `0` are the same component. A component that is not a decimal number
/// does not name any element of an array. Dictionary keys that are not strings (the binary format
/// allows integer or data keys) are not reached by key paths.
///
/// **Text.** A string literal is read in `plutil`'s form: `.` separates components and `\.` is a dot
/// inside one. A value interpolated into the literal is always text inside one component, dots and
/// all (`"settings.\(name)"` with `name` = `"a.b"` is two components, `settings` and `a.b`). A
/// `String` made at run time is parsed explicitly, with ``init(parsing:)`` (either tool's form),
/// ``init(plutil:)`` or ``init(plistBuddy:)``; or its keys are used as they are with ``init(keys:)``.
///
/// The empty path (``root``, or the text `""`) names the whole property list.
public struct PlistKeyPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation,
    ExpressibleByArrayLiteral
{
    /// One step of a path: a dictionary key, or (when it is a decimal number) an array position.
    public struct Component: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral,
        ExpressibleByIntegerLiteral
    {
        /// The component's text: the key, or the position in decimal.
        public let key: String

        /// A dictionary key (or, when it is a decimal number, an array position).
        public init(_ key: String) { self.key = key }

        /// An array position; in a dictionary, the key that is its decimal text.
        public init(index: Int) { self.key = String(index) }

        public init(stringLiteral value: String) { self.init(value) }
        public init(integerLiteral value: Int) { self.init(index: value) }

        /// The array position this component names: its text read as a decimal integer (an optional
        /// sign and leading zeros are accepted, as `plutil` accepts them), or `nil`.
        public var index: Int? { Int(key) }

        /// The key as it is.
        public var description: String { key }
    }

    /// The components, from the root.
    public var components: [Component]

    /// The path of these components (each used as it is: nothing is escaped or split).
    public init(_ components: [Component]) { self.components = components }

    /// The path of these keys (each used as it is: nothing is escaped or split).
    public init(keys: some Sequence<String>) { components = keys.map { Component($0) } }

    /// The path with no components: the whole property list.
    public static let root = PlistKeyPath([])

    /// Reads `plutil`'s form: components separated by `.`; `\.` is a dot inside a component (every
    /// other backslash is itself). The empty text is the root; `a..b` has an empty key in the middle.
    public init(plutil text: String) {
        guard !text.isEmpty else {
            components = []
            return
        }
        components = Self.split(Array(text.utf8)[...], at: UInt8(ascii: "."))
    }

    /// Reads PlistBuddy's form: `:a:b:0:c`, each component after a `:`; `\:` is a colon inside a
    /// component (an extension: PlistBuddy has no escape). `:` alone, and the empty text, are the root.
    ///
    /// - Throws: ``PlistError`` with code `syntax` when a non-empty `text` does not start with `:`.
    public init(plistBuddy text: String) throws(PlistError) {
        guard !text.isEmpty, text != ":" else {
            components = []
            return
        }
        let bytes = Array(text.utf8)
        guard bytes[0] == UInt8(ascii: ":") else {
            throw PlistError(
                .syntax, offset: 0, "a PlistBuddy key path starts with ':' (\"\(text)\" does not)")
        }
        components = Self.split(bytes[1...], at: UInt8(ascii: ":"))
    }

    /// The components of `bytes` separated by `separator`, where a backslash before the separator
    /// makes it part of the component (every other backslash is itself).
    private static func split(_ bytes: ArraySlice<UInt8>, at separator: UInt8) -> [Component] {
        var parts: [Component] = []
        var current: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "\\"), i + 1 < bytes.endIndex, bytes[i + 1] == separator {
                current.append(separator)
                i += 2
                continue
            }
            if b == separator {
                parts.append(Component(String(decoding: current, as: UTF8.self)))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(b)
            }
            i += 1
        }
        parts.append(Component(String(decoding: current, as: UTF8.self)))
        return parts
    }

    /// Reads either form: PlistBuddy's when `text` starts with `:`, `plutil`'s otherwise.
    ///
    /// This is how the `bplist` tool reads the key paths it is given.
    public init(parsing text: String) {
        if text.hasPrefix(":"), let path = try? PlistKeyPath(plistBuddy: text) {
            self = path
        } else {
            self.init(plutil: text)
        }
    }

    /// `plutil`'s form (``init(plutil:)``).
    public init(stringLiteral value: String) { self.init(plutil: value) }

    /// A literal with interpolated values: the literal text in `plutil`'s form, each interpolated
    /// value text inside the component it stands in (never split at its dots).
    public init(stringInterpolation: StringInterpolation) {
        var interpolation = stringInterpolation
        interpolation.flush()
        components = interpolation.components.map { Component($0) }
    }

    /// The pieces of a key-path literal with interpolated values (see ``init(stringInterpolation:)``).
    public struct StringInterpolation: StringInterpolationProtocol {
        /// The components finished so far (each the text of one key).
        var components: [String] = []
        /// The text of the component being built.
        var current: [UInt8] = []
        /// The literal text is empty so far (an empty literal is the root).
        var empty = true

        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Literal text: `.` ends a component, `\.` is a dot.
        public mutating func appendLiteral(_ literal: String) {
            let bytes = Array(literal.utf8)
            var i = 0
            while i < bytes.count {
                empty = false
                let b = bytes[i]
                if b == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ".") {
                    current.append(UInt8(ascii: "."))
                    i += 2
                    continue
                }
                if b == UInt8(ascii: ".") {
                    components.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                } else {
                    current.append(b)
                }
                i += 1
            }
        }

        /// An interpolated value: its text, whole, inside the current component.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            empty = false
            current.append(contentsOf: value.description.utf8)
        }

        /// Ends the last component.
        mutating func flush() {
            guard !empty else { return }
            components.append(String(decoding: current, as: UTF8.self))
            current.removeAll()
        }
    }

    public init(arrayLiteral elements: Component...) { self.init(elements) }

    /// Whether this is the root (no components).
    public var isEmpty: Bool { components.isEmpty }

    /// The number of components.
    public var count: Int { components.count }

    /// The last component, or `nil` for the root.
    public var last: Component? { components.last }

    /// The path without its last component (the root's parent is the root).
    public var parent: PlistKeyPath { PlistKeyPath(Array(components.dropLast())) }

    /// The first `count` components.
    public func prefix(_ count: Int) -> PlistKeyPath { PlistKeyPath(Array(components.prefix(count))) }

    /// This path followed by `component`.
    public func appending(_ component: Component) -> PlistKeyPath { PlistKeyPath(components + [component]) }

    /// This path followed by `other`'s components.
    public func appending(_ other: PlistKeyPath) -> PlistKeyPath { PlistKeyPath(components + other.components) }

    /// `plutil`'s form, which ``init(plutil:)`` reads back: components joined with `.`, a dot inside a
    /// key written `\.`. (A key that ends in a backslash followed by another component cannot be
    /// written in this form; such paths are built from components.)
    public var description: String {
        components.map { $0.key.replacing(".", with: "\\.") }.joined(separator: ".")
    }

    /// PlistBuddy's form, which ``init(plistBuddy:)`` reads back (`:` for the root).
    public var plistBuddyDescription: String {
        ":" + components.map { $0.key.replacing(":", with: "\\:") }.joined(separator: ":")
    }
}
