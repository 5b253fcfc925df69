// Sources/KeyedArchiveMacrosPlugin/ClassShape.swift - Reading a class the way the macro needs it.
//
// Both roles of `@KeyedArchivable` (members and the conformance) read the class through one
// `ClassShape`, so they cannot disagree about whether it is final, a subclass or two-phase.

import SwiftDiagnostics
import SwiftSyntax

/// Protocols a class commonly lists first that are not archivable superclasses. Anything else in
/// the first position of the inheritance clause is taken for an `@KeyedArchivable` superclass.
let knownProtocols: Set<String> = [
    "AnyObject", "Sendable", "Equatable", "Hashable", "Comparable", "Identifiable", "CustomStringConvertible",
    "CustomDebugStringConvertible", "CustomReflectable", "LosslessStringConvertible", "Codable", "Encodable",
    "Decodable", "Error", "LocalizedError", "CaseIterable", "RawRepresentable", "Observable", "KeyedArchiveValue",
    "KeyedArchivable", "TwoPhaseKeyedArchivable",
]

/// The class as the macro sees it.
struct ClassShape {
    /// The Swift type name.
    let typeName: String
    /// The `$classname` literal as written (escapes kept), or the type name.
    let archiveName: String
    let isFinal: Bool
    /// The first inherited type is (taken for) an `@KeyedArchivable` superclass.
    let isSubclass: Bool
    let cycles: Bool
    /// `open `, `public ` or nothing, for the generated members.
    let access: String
    let properties: [StoredProperty]
    /// The class's own `init()`, if it declares one.
    let plainInit: InitializerDeclSyntax?
    /// Whether it declares any initializer (which removes Swift's implicit `init()`).
    let declaresInitializer: Bool

    /// Decoded as `init()` then `decodeFields(from:)`: a hierarchy, or cycles asked for.
    var isTwoPhase: Bool { cycles || !isFinal || isSubclass }

    /// Reads `declaration`; `nil` (with diagnostics) when the macro cannot apply.
    static func read(
        _ declaration: some DeclGroupSyntax, attribute: AttributeSyntax, diagnoser: inout Diagnoser
    ) -> ClassShape? {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            let kind: String
            if declaration.is(StructDeclSyntax.self) {
                kind = "a struct"
            } else if declaration.is(EnumDeclSyntax.self) {
                kind = "an enum"
            } else if declaration.is(ActorDeclSyntax.self) {
                kind = "an actor"
            } else {
                kind = "this declaration"
            }
            diagnoser.error(
                .notAClass, at: attribute,
                "@KeyedArchivable applies to classes, not \(kind): a keyed archive holds objects, "
                    + "shared by identity; archive a value type through Codable (KeyedArchiveEncoder) "
                    + "or give it a KeyedArchiveValue conformance"
            )
            return nil
        }

        // Arguments: an optional class-name literal, then `cycles:`.
        var archiveName = classDecl.name.text
        var cycles = false
        if case .argumentList(let arguments) = attribute.arguments {
            for argument in arguments {
                if argument.label == nil {
                    if argument.expression.is(NilLiteralExprSyntax.self) { continue }
                    guard let name = String(literal: argument.expression), !name.isEmpty else {
                        diagnoser.error(
                            .classNameNotLiteral, at: argument.expression,
                            "the archived class name must be a non-empty string literal"
                        )
                        return nil
                    }
                    archiveName = name
                } else if argument.label?.text == "cycles" {
                    guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
                        diagnoser.error(.cyclesNotLiteral, at: argument.expression, "'cycles' must be true or false")
                        return nil
                    }
                    cycles = literal.literal.tokenKind == .keyword(.true)
                }
            }
        }

        let modifiers = classDecl.modifiers.map(\.name.tokenKind)
        let isFinal = modifiers.contains(.keyword(.final))
        let access: String
        if modifiers.contains(.keyword(.open)) {
            access = "open "
        } else if modifiers.contains(.keyword(.public)) {
            access = "public "
        } else {
            access = ""
        }

        let inherited =
            classDecl.inheritanceClause?.inheritedTypes.map { type -> String in
                let text =
                    type.type.as(AttributedTypeSyntax.self)?.baseType.trimmedDescription ?? type.type.trimmedDescription
                return String(text.split(separator: ".").last ?? "")
            } ?? []
        let namesArchivable = inherited.contains("KeyedArchivable") || inherited.contains("TwoPhaseKeyedArchivable")
        let isSubclass: Bool
        if let first = inherited.first, !namesArchivable, !knownProtocols.contains(first),
            !first.hasPrefix("ExpressibleBy")
        {
            isSubclass = true
        } else {
            isSubclass = false
        }

        var plainInit: InitializerDeclSyntax?
        var declaresInitializer = false
        var properties: [StoredProperty] = []
        for member in classDecl.memberBlock.members {
            if let initializer = member.decl.as(InitializerDeclSyntax.self) {
                declaresInitializer = true
                if initializer.signature.parameterClause.parameters.isEmpty, initializer.optionalMark == nil {
                    plainInit = initializer
                }
            }
            if let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "encode",
                function.signature.parameterClause.parameters.first?.firstName.text == "with"
            {
                diagnoser.error(
                    .handWritten, at: function.name,
                    "'encode(with:)' is generated by @KeyedArchivable: remove this one, or the macro "
                        + "to keep the conformance hand-written"
                )
            }
            if let initializer = member.decl.as(InitializerDeclSyntax.self),
                initializer.signature.parameterClause.parameters.first?.firstName.text == "from",
                initializer.signature.parameterClause.parameters.count == 1
            {
                diagnoser.error(
                    .handWritten, at: initializer.initKeyword,
                    "'init(from:)' is generated by @KeyedArchivable: remove this one, or the macro "
                        + "to keep the conformance hand-written"
                )
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.isInstanceStorage,
                variable.attribute(named: "ArchiveIgnored") == nil
            else { continue }
            properties += storedProperties(of: variable, diagnoser: &diagnoser)
        }

        let shape = ClassShape(
            typeName: classDecl.name.text, archiveName: archiveName, isFinal: isFinal, isSubclass: isSubclass,
            cycles: cycles, access: access, properties: properties, plainInit: plainInit,
            declaresInitializer: declaresInitializer
        )
        shape.check(classDecl, diagnoser: &diagnoser)
        return shape
    }

    /// The stored properties of one declaration (`var a = 1, b: Int`), with their keys.
    private static func storedProperties(of variable: VariableDeclSyntax, diagnoser: inout Diagnoser)
        -> [StoredProperty]
    {
        var key: String?
        let keyAttribute = variable.attribute(named: "ArchiveKey")
        if let keyAttribute {
            guard case .argumentList(let arguments) = keyAttribute.arguments, let first = arguments.first,
                let literal = String(literal: first.expression)
            else {
                diagnoser.error(.keyNotLiteral, at: keyAttribute, "@ArchiveKey takes one string literal")
                return []
            }
            guard !literal.isEmpty else {
                diagnoser.error(.emptyKey, at: first.expression, "an archive key cannot be empty")
                return []
            }
            key = literal
        }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        var result: [StoredProperty] = []
        let bindings = Array(variable.bindings)
        for (index, binding) in bindings.enumerated() where binding.isStored {
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
            // `var a, b: Int`: a binding without an annotation takes the next one's.
            let type =
                binding.typeAnnotation?.type
                ?? bindings[(index + 1)...].lazy.compactMap { $0.typeAnnotation?.type }.first
            let isOptional = type?.isOptional ?? false
            let name = pattern.identifier.text.trimmingCharacters(in: "`")
            if bindings.count > 1, let keyAttribute {
                diagnoser.error(
                    .duplicateKey, at: keyAttribute,
                    "@ArchiveKey names one property: declare '\(name)' on its own line"
                )
                return []
            }
            result.append(
                StoredProperty(
                    name: name, key: key ?? name, type: type,
                    hasDefault: binding.initializer != nil || (isOptional && !isLet), isOptional: isOptional,
                    isLet: isLet, isWeak: variable.hasModifier(.weak) || variable.hasModifier(.unowned),
                    node: binding, declaration: variable, keyAttribute: keyAttribute,
                    identifier: pattern.identifier.trimmed
                )
            )
        }
        return result
    }

    /// The diagnostics that need the whole class.
    private func check(_ classDecl: ClassDeclSyntax, diagnoser: inout Diagnoser) {
        var firstByKey: [String: StoredProperty] = [:]
        for property in properties {
            if let type = property.type, let part = type.unarchivablePart {
                diagnoser.error(
                    .unarchivableType, at: type,
                    "property '\(property.name)' has type '\(type.trimmedDescription)': a keyed archive cannot hold "
                        + "'\(part.trimmedDescription)'; mark it @ArchiveIgnored or change its type",
                    fixIts: [.ignore(property.declaration)]
                )
            }
            if property.isLet, property.node.initializer != nil {
                diagnoser.error(
                    .letWithDefault, at: property.node,
                    "'let \(property.name)' has an initial value, so unarchiving cannot set it; make it 'var', "
                        + "or mark it @ArchiveIgnored to leave it out of the archive",
                    fixIts: [.makeVar(property.declaration), .ignore(property.declaration)]
                )
            } else if property.isLet, isTwoPhase {
                diagnoser.error(
                    .letInTwoPhase, at: property.node,
                    "'let \(property.name)' cannot be decoded: \(twoPhaseReason) is unarchived in two phases "
                        + "(init(), then its fields), and the second cannot set a 'let'",
                    fixIts: [.makeVar(property.declaration)]
                )
            }
            if let first = firstByKey[property.key] {
                diagnoser.error(
                    .duplicateKey, at: property.keyAttribute.map(Syntax.init) ?? Syntax(property.node),
                    "'\(property.name)' and '\(first.name)' are both stored under the key \"\(property.key)\"",
                    notes: [
                        Note(
                            node: Syntax(first.node), message: ArchiveNote(message: "'\(first.name)' is declared here"))
                    ]
                )
            } else {
                firstByKey[property.key] = property
            }
        }
        guard isTwoPhase else { return }
        if isSubclass {
            // A subclass inherits `init()` only while it declares no designated initializer.
            if plainInit == nil, !declaresInitializer,
                let property = properties.first(where: { !$0.hasDefault })
            {
                diagnoser.error(
                    .subclassPropertyWithoutDefault, at: property.node,
                    "'\(property.name)' needs a default value: a subclass is unarchived through the 'init()' "
                        + "it inherits, then its fields"
                )
            }
        } else if let plainInit {
            if !isFinal, !plainInit.modifiers.contains(where: { $0.name.tokenKind == .keyword(.required) }) {
                diagnoser.error(
                    .initNotRequired, at: plainInit.initKeyword,
                    "'init()' must be 'required': subclasses are unarchived through it",
                    fixIts: [.makeRequired(plainInit)]
                )
            }
        } else if let property = properties.first(where: { !$0.hasDefault }) {
            diagnoser.error(
                .missingInit, at: classDecl.name,
                "\(twoPhaseReason) is unarchived in two phases and needs \(isFinal ? "" : "a required ")'init()'"
                    + " (or default values for every stored property, '\(property.name)' has none)"
            )
        }
    }

    private var twoPhaseReason: String {
        isSubclass ? "a subclass" : !isFinal ? "a non-final class" : "a class with cycles"
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
