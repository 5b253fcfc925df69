// Tests/KeyedArchiveMacrosExpansionTests/ExpansionTests.swift - What `@KeyedArchivable` expands to.
//
// Each form of the issue's call sites, expanded by the macro plugin as the compiler would, and
// compared with the code a careful person writes by hand; then every diagnostic, with its fix-its
// applied. (The behaviour of the expanded code is tested in KeyedArchiveMacrosTests.)

import KeyedArchiveMacrosPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros as the compiler sees them. `conformances` are those the class does not have yet:
/// a subclass of an archivable class has none missing.
func specs(missing conformances: [String] = ["KeyedArchivable", "TwoPhaseKeyedArchivable"]) -> [String: MacroSpec] {
    [
        "KeyedArchivable": MacroSpec(type: KeyedArchivableMacro.self, conformances: conformances.map { "\(raw: $0)" }),
        "ArchiveKey": MacroSpec(type: ArchiveKeyMacro.self),
        "ArchiveIgnored": MacroSpec(type: ArchiveIgnoredMacro.self),
    ]
}

/// `assertMacroExpansion`, reporting to Swift Testing.
func expand(
    _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], fixed: String? = nil,
    missing: [String] = ["KeyedArchivable", "TwoPhaseKeyedArchivable"],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: specs(missing: missing),
        fixedSource: fixed, indentationWidth: .spaces(4)
    ) { failure in
        Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
    }
}

@Suite struct ExpansionTests {
    @Test func finalClassDecodesInOnePhase() {
        expand(
            """
            @KeyedArchivable("XWZDog")
            final class Dog {
                var name: String
                let age: Int
                init(name: String, age: Int) { self.name = name; self.age = age }
            }
            """,
            """
            final class Dog {
                var name: String
                let age: Int
                init(name: String, age: Int) { self.name = name; self.age = age }

                static var archiveClassName: String {
                    "XWZDog"
                }

                func encode(with coder: KeyedArchive.KeyedArchiver) throws {
                    try coder.encode(self.name, forKey: "name")
                    try coder.encode(self.age, forKey: "age")
                }

                init(from coder: KeyedArchive.KeyedUnarchiver) throws {
                    self.name = try coder.decode(String.self, forKey: "name")
                    self.age = try coder.decode(Int.self, forKey: "age")
                }
            }

            extension Dog: KeyedArchive.KeyedArchivable {
            }
            """
        )
    }

    @Test func defaultsKeysIgnoredAndComputedProperties() {
        expand(
            """
            @KeyedArchivable("XWZPerson")
            public final class Person {
                var name: String = ""
                @ArchiveKey("years") var age: Int = 0
                var dog: Dog?
                let badge: Int?
                var friends: [Person] = []
                @ArchiveIgnored var cache: [String: Int] = [:]
                lazy var index: [String: Int] = [:]
                static var count = 0
                var displayName: String { name.uppercased() }
                var watched = 1 { didSet { print(watched) } }
                var token: String! = nil
            }
            """,
            """
            public final class Person {
                var name: String = ""
                var age: Int = 0
                var dog: Dog?
                let badge: Int?
                var friends: [Person] = []
                var cache: [String: Int] = [:]
                lazy var index: [String: Int] = [:]
                static var count = 0
                var displayName: String { name.uppercased() }
                var watched = 1 { didSet { print(watched) } }
                var token: String! = nil

                public static var archiveClassName: String {
                    "XWZPerson"
                }

                public func encode(with coder: KeyedArchive.KeyedArchiver) throws {
                    try coder.encode(self.name, forKey: "name")
                    try coder.encode(self.age, forKey: "years")
                    try coder.encode(self.dog, forKey: "dog")
                    try coder.encode(self.badge, forKey: "badge")
                    try coder.encode(self.friends, forKey: "friends")
                    try coder.encode(self.watched, forKey: "watched")
                    try coder.encode(self.token, forKey: "token")
                }

                public init(from coder: KeyedArchive.KeyedUnarchiver) throws {
                    do {
                        var value = self.name
                        try coder.decodeKeepingDefault(into: &value, forKey: "name")
                        self.name = value
                    }
                    do {
                        var value = self.age
                        try coder.decodeKeepingDefault(into: &value, forKey: "years")
                        self.age = value
                    }
                    do {
                        var value = self.dog
                        try coder.decodeNullable(into: &value, forKey: "dog")
                        self.dog = value
                    }
                    self.badge = try coder.decode(Int?.self, forKey: "badge")
                    do {
                        var value = self.friends
                        try coder.decodeKeepingDefault(into: &value, forKey: "friends")
                        self.friends = value
                    }
                    do {
                        var value = self.watched
                        try coder.decodeKeepingDefault(into: &value, forKey: "watched")
                        self.watched = value
                    }
                    do {
                        var value = self.token
                        try coder.decodeNullable(into: &value, forKey: "token")
                        self.token = value
                    }
                }
            }

            extension Person: KeyedArchive.KeyedArchivable {
            }
            """
        )
    }

    @Test func implicitInitIsKeptAndTheDefaultNameIsTheTypeName() {
        expand(
            """
            @KeyedArchivable
            final class Settings {
                var volume = 5
            }
            """,
            """
            final class Settings {
                var volume = 5

                static var archiveClassName: String {
                    "Settings"
                }

                func encode(with coder: KeyedArchive.KeyedArchiver) throws {
                    try coder.encode(self.volume, forKey: "volume")
                }

                init(from coder: KeyedArchive.KeyedUnarchiver) throws {
                    do {
                        var value = self.volume
                        try coder.decodeKeepingDefault(into: &value, forKey: "volume")
                        self.volume = value
                    }
                }

                init() {
                }
            }

            extension Settings: KeyedArchive.KeyedArchivable {
            }
            """
        )
    }

    @Test func cyclesDecodeInTwoPhases() {
        expand(
            """
            @KeyedArchivable("XWZNode", cycles: true)
            final class Node {
                weak var parent: Node?
                var children: [Node] = []
                init() {}
            }
            """,
            """
            final class Node {
                weak var parent: Node?
                var children: [Node] = []
                init() {}

                static var archiveClassName: String {
                    "XWZNode"
                }

                func encode(with coder: KeyedArchive.KeyedArchiver) throws {
                    try coder.encodeConditionalObject(self.parent, forKey: "parent")
                    try coder.encode(self.children, forKey: "children")
                }

                func decodeFields(from coder: KeyedArchive.KeyedUnarchiver) throws {
                    do {
                        var value = self.parent
                        try coder.decodeNullable(into: &value, forKey: "parent")
                        self.parent = value
                    }
                    do {
                        var value = self.children
                        try coder.decodeKeepingDefault(into: &value, forKey: "children")
                        self.children = value
                    }
                }
            }

            extension Node: KeyedArchive.KeyedArchivable, KeyedArchive.TwoPhaseKeyedArchivable {
            }
            """
        )
    }

    @Test func aHierarchyRootIsTwoPhaseWithOverridableMembers() {
        expand(
            """
            @KeyedArchivable("XWZAnimal") open class Animal {
                var name = ""
            }
            """,
            """
            open class Animal {
                var name = ""

                open class var archiveClassName: String {
                    "XWZAnimal"
                }

                open func encode(with coder: KeyedArchive.KeyedArchiver) throws {
                    try coder.encode(self.name, forKey: "name")
                }

                open func decodeFields(from coder: KeyedArchive.KeyedUnarchiver) throws {
                    do {
                        var value = self.name
                        try coder.decodeKeepingDefault(into: &value, forKey: "name")
                        self.name = value
                    }
                }

                public required init() {
                }
            }

            extension Animal: KeyedArchive.KeyedArchivable, KeyedArchive.TwoPhaseKeyedArchivable {
            }
            """
        )
    }

    @Test func aSubclassChainsToItsSuperclass() {
        expand(
            """
            @KeyedArchivable("XWZCat") final class Cat: Animal, CustomStringConvertible {
                var lives = 9
            }
            """,
            """
            final class Cat: Animal, CustomStringConvertible {
                var lives = 9

                override class var archiveClassName: String {
                    "XWZCat"
                }

                override func encode(with coder: KeyedArchive.KeyedArchiver) throws {
                    try super.encode(with: coder)
                    try coder.encode(self.lives, forKey: "lives")
                }

                override func decodeFields(from coder: KeyedArchive.KeyedUnarchiver) throws {
                    try super.decodeFields(from: coder)
                    do {
                        var value = self.lives
                        try coder.decodeKeepingDefault(into: &value, forKey: "lives")
                        self.lives = value
                    }
                }
            }
            """,
            missing: []
        )
    }

    @Test func aClassListingOnlyProtocolsIsARoot() {
        expand(
            """
            @KeyedArchivable final class Tag: Hashable, Sendable {
                var text = ""
            }
            """,
            """
            final class Tag: Hashable, Sendable {
                var text = ""

                static var archiveClassName: String {
                    "Tag"
                }

                func encode(with coder: KeyedArchive.KeyedArchiver) throws {
                    try coder.encode(self.text, forKey: "text")
                }

                init(from coder: KeyedArchive.KeyedUnarchiver) throws {
                    do {
                        var value = self.text
                        try coder.decodeKeepingDefault(into: &value, forKey: "text")
                        self.text = value
                    }
                }

                init() {
                }
            }

            extension Tag: KeyedArchive.KeyedArchivable {
            }
            """
        )
    }

    // MARK: - Diagnostics

    @Test func aStructIsRejectedWithTheReason() {
        expand(
            """
            @KeyedArchivable struct Point {
                var x = 0
            }
            """,
            """
            struct Point {
                var x = 0
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@KeyedArchivable applies to classes, not a struct: a keyed archive holds objects, shared "
                        + "by identity; archive a value type through Codable (KeyedArchiveEncoder) or give it a "
                        + "KeyedArchiveValue conformance",
                    line: 1, column: 1
                )
            ]
        )
        expand(
            """
            @KeyedArchivable enum Mode {
                case a
            }
            """,
            """
            enum Mode {
                case a
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@KeyedArchivable applies to classes, not an enum: a keyed archive holds objects, shared "
                        + "by identity; archive a value type through Codable (KeyedArchiveEncoder) or give it a "
                        + "KeyedArchiveValue conformance",
                    line: 1, column: 1
                )
            ]
        )
    }

    @Test func anUnarchivableTypeIsNamedWithAFixIt() {
        expand(
            """
            @KeyedArchivable final class Job {
                var name = ""
                var onDone: (() -> Void)? = nil
            }
            """,
            """
            final class Job {
                var name = ""
                var onDone: (() -> Void)? = nil
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "property 'onDone' has type '(() -> Void)?': a keyed archive cannot hold '() -> Void'; "
                        + "mark it @ArchiveIgnored or change its type",
                    line: 3, column: 17, fixIts: [FixItSpec(message: "mark it @ArchiveIgnored")]
                )
            ],
            fixed: """
                @KeyedArchivable final class Job {
                    var name = ""
                    @ArchiveIgnored var onDone: (() -> Void)? = nil
                }
                """
        )
    }

    @Test func aLetWithAnInitialValueCannotBeDecoded() {
        expand(
            """
            @KeyedArchivable final class Item {
                let id = 7
            }
            """,
            """
            final class Item {
                let id = 7
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'let id' has an initial value, so unarchiving cannot set it; make it 'var', or mark it "
                        + "@ArchiveIgnored to leave it out of the archive",
                    line: 2, column: 9,
                    fixIts: [FixItSpec(message: "make it 'var'"), FixItSpec(message: "mark it @ArchiveIgnored")]
                )
            ],
            fixed: """
                @KeyedArchivable final class Item {
                    var id = 7
                }
                """
        )
    }

    @Test func aLetInATwoPhaseClassCannotBeDecoded() {
        expand(
            """
            @KeyedArchivable(cycles: true) final class Link {
                let next: Link?
                init() { next = nil }
            }
            """,
            """
            final class Link {
                let next: Link?
                init() { next = nil }
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'let next' cannot be decoded: a class with cycles is unarchived in two phases (init(), "
                        + "then its fields), and the second cannot set a 'let'",
                    line: 2, column: 9, fixIts: [FixItSpec(message: "make it 'var'")]
                )
            ],
            fixed: """
                @KeyedArchivable(cycles: true) final class Link {
                    var next: Link?
                    init() { next = nil }
                }
                """
        )
    }

    @Test func twoPropertiesUnderOneKey() {
        expand(
            """
            @KeyedArchivable final class Pair {
                var years = 0
                @ArchiveKey("years") var age = 0
            }
            """,
            """
            final class Pair {
                var years = 0
                var age = 0
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'age' and 'years' are both stored under the key \"years\"", line: 3, column: 5,
                    notes: [NoteSpec(message: "'years' is declared here", line: 2, column: 9)]
                )
            ]
        )
    }

    @Test func handWrittenMembersAndMissingInitializers() {
        expand(
            """
            @KeyedArchivable final class Twice {
                var a = 0
                func encode(with coder: KeyedArchiver) throws {}
            }
            """,
            """
            final class Twice {
                var a = 0
                func encode(with coder: KeyedArchiver) throws {}
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'encode(with:)' is generated by @KeyedArchivable: remove this one, or the macro to keep "
                        + "the conformance hand-written",
                    line: 3, column: 10
                )
            ]
        )
        expand(
            """
            @KeyedArchivable class Base {
                var a: Int
                init(a: Int) { self.a = a }
            }
            """,
            """
            class Base {
                var a: Int
                init(a: Int) { self.a = a }
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a non-final class is unarchived in two phases and needs a required 'init()' (or default "
                        + "values for every stored property, 'a' has none)",
                    line: 1, column: 24
                )
            ]
        )
        expand(
            """
            @KeyedArchivable class Shape {
                var sides = 0
                init() {}
            }
            """,
            """
            class Shape {
                var sides = 0
                init() {}
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'init()' must be 'required': subclasses are unarchived through it", line: 3, column: 5,
                    fixIts: [FixItSpec(message: "make it 'required'")]
                )
            ],
            fixed: """
                @KeyedArchivable class Shape {
                    var sides = 0
                    required init() {}
                }
                """
        )
        expand(
            """
            @KeyedArchivable final class Square: Shape {
                var side: Double
            }
            """,
            """
            final class Square: Shape {
                var side: Double
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'side' needs a default value: a subclass is unarchived through the 'init()' it inherits, "
                        + "then its fields",
                    line: 2, column: 9
                )
            ],
            missing: []
        )
    }

    @Test func theRequiredFixItGoesBeforeOtherModifiers() {
        expand(
            """
            @KeyedArchivable open class Base {
                var n = 0
                public init() {}
            }
            """,
            """
            open class Base {
                var n = 0
                public init() {}
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'init()' must be 'required': subclasses are unarchived through it", line: 3, column: 12,
                    fixIts: [FixItSpec(message: "make it 'required'")]
                )
            ],
            fixed: """
                @KeyedArchivable open class Base {
                    var n = 0
                    required public init() {}
                }
                """
        )
    }

    @Test func argumentsMustBeLiterals() {
        expand(
            """
            @KeyedArchivable(name) final class A {
                var x = 0
            }
            """,
            """
            final class A {
                var x = 0
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "the archived class name must be a non-empty string literal", line: 1, column: 18)
            ]
        )
        expand(
            """
            @KeyedArchivable final class B {
                @ArchiveKey(key) var x = 0
                @ArchiveKey("") var y = 0
            }
            """,
            """
            final class B {
                var x = 0
                var y = 0
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@ArchiveKey takes one string literal", line: 2, column: 5),
                DiagnosticSpec(message: "an archive key cannot be empty", line: 3, column: 17),
            ]
        )
    }
}
