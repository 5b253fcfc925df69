// Sources/KeyedArchiveMacrosPlugin/KeyedArchivableMacro.swift - The expansion of `@KeyedArchivable`.
//
// The members are what a careful person writes by hand for `KeyedArchivable`: the class name, one
// `encode(_:forKey:)` per stored property and one decode, in declaration order. Three shapes:
//
//   final, no superclass        `init(from:)`          (one phase: `let` works)
//   final with `cycles: true`   `decodeFields(from:)`  (`TwoPhaseKeyedArchivable`)
//   non-final, or a subclass    `decodeFields(from:)`, overridden down the hierarchy, each calling
//                               its superclass's first; `init()` required so subclasses inherit it

import SwiftCompilerPlugin
import SwiftDiagnostics
public import SwiftSyntax
public import SwiftSyntaxMacros

public struct KeyedArchivableMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        var diagnoser = Diagnoser()
        let shape = ClassShape.read(declaration, attribute: node, diagnoser: &diagnoser)
        for diagnostic in diagnoser.diagnostics { context.diagnose(diagnostic) }
        guard let shape, !diagnoser.hasErrors else { return [] }
        return members(of: shape)
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        // The member role reports the diagnostics; this one only stays silent when there are any.
        var diagnoser = Diagnoser()
        guard let shape = ClassShape.read(declaration, attribute: node, diagnoser: &diagnoser), !diagnoser.hasErrors
        else { return [] }
        // `protocols` holds the conformances the class does not have yet: none for a subclass of an
        // `@KeyedArchivable` class, which inherits its superclass's.
        let missing = Set(protocols.map { String($0.trimmedDescription.split(separator: ".").last ?? "") })
        // Both are named when both are missing: a conformance implied by a macro-made extension
        // (TwoPhaseKeyedArchivable's to KeyedArchivable) is not found by the compiler.
        var conformances: [String] = []
        if missing.contains("KeyedArchivable") { conformances.append("KeyedArchive.KeyedArchivable") }
        if shape.isTwoPhase, missing.contains("TwoPhaseKeyedArchivable") {
            conformances.append("KeyedArchive.TwoPhaseKeyedArchivable")
        }
        guard !conformances.isEmpty else { return [] }
        return [
            try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}")
        ]
    }

    /// The generated members.
    static func members(of shape: ClassShape) -> [DeclSyntax] {
        let access = shape.access
        // Members that subclasses override are `open` in an open class; initializers `public`.
        let initAccess = access == "open " ? "public " : access
        let override = shape.isSubclass ? "override " : ""
        let classKeyword = shape.isFinal && !shape.isSubclass ? "static" : "class"
        var result: [DeclSyntax] = []

        result.append(
            """
            \(raw: override)\(raw: access)\(raw: classKeyword) var archiveClassName: String { "\(raw: shape.archiveName)" }
            """
        )

        var encode = shape.isSubclass ? ["try super.encode(with: coder)"] : []
        encode += shape.properties.map {
            let method = $0.isWeak ? "encodeConditionalObject" : "encode"
            return "try coder.\(method)(self.\($0.identifier.text), forKey: \"\($0.key)\")"
        }
        result.append(
            """
            \(raw: override)\(raw: access)func encode(with coder: KeyedArchive.KeyedArchiver) throws {
            \(raw: body(encode))
            }
            """
        )

        var decode = shape.isSubclass ? ["try super.decodeFields(from: coder)"] : []
        decode += shape.properties.map(decodeStatement)
        if shape.isTwoPhase {
            result.append(
                """
                \(raw: override)\(raw: access)func decodeFields(from coder: KeyedArchive.KeyedUnarchiver) throws {
                \(raw: body(decode))
                }
                """
            )
            // The `init()` phase one needs, when the class has none and every property a default.
            if !shape.isSubclass, shape.plainInit == nil, shape.properties.allSatisfy(\.hasDefault) {
                result.append(shape.isFinal ? "\(raw: initAccess)init() {}" : "\(raw: initAccess)required init() {}")
            }
        } else {
            result.append(
                """
                \(raw: initAccess)init(from coder: KeyedArchive.KeyedUnarchiver) throws {
                \(raw: body(decode))
                }
                """
            )
            // Keep Swift's implicit `init()`, which declaring `init(from:)` would remove.
            if !shape.declaresInitializer, shape.properties.allSatisfy(\.hasDefault) {
                result.append("init() {}")
            }
        }
        return result
    }

    /// One property's decode: required properties are assigned, properties with a default value
    /// (older archives may lack them) are decoded into a copy of their value only when present, and
    /// the copy is stored back: an optional property (its type written `T?`) takes `nil` from `$null`
    /// (`decodeNullable`), any other keeps its default (`decodeKeepingDefault`). (Passing `&self.property` itself would be an `inout` access to a class
    /// property across a call, which Swift checks for exclusivity at run time: 6 % of an unarchive of a
    /// class hierarchy.)
    static func decodeStatement(_ property: StoredProperty) -> String {
        let target = "self.\(property.identifier.text)"
        if property.hasDefault || property.type == nil {
            return [
                "do {",
                "    var value = \(target)",
                "    try coder.\(property.isOptional ? "decodeNullable" : "decodeKeepingDefault")(into: &value, forKey: \"\(property.key)\")",
                "    \(target) = value",
                "}",
            ].joined(separator: "\n")
        }
        let type = property.type?.decodableSpelling ?? ""
        return "\(target) = try coder.decode(\(type).self, forKey: \"\(property.key)\")"
    }

    private static func body(_ lines: [String]) -> String {
        lines.flatMap { $0.split(separator: "\n") }.map { "    " + $0 }.joined(separator: "\n")
    }
}

/// `@ArchiveKey("k")`: read by `@KeyedArchivable`; generates nothing itself.
public struct ArchiveKeyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// `@ArchiveIgnored`: read by `@KeyedArchivable`; generates nothing itself.
public struct ArchiveIgnoredMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

@main
struct KeyedArchiveMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [KeyedArchivableMacro.self, ArchiveKeyMacro.self, ArchiveIgnoredMacro.self]
}
