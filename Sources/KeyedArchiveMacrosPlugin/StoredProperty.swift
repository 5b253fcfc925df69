// Sources/KeyedArchiveMacrosPlugin/StoredProperty.swift - What the macro reads from a class body.
//
// Syntax only: the macro sees no types, so "stored", "optional" and "has a default" are read off
// the declaration as written (a type annotation, `?`, an initializer, accessors).

import SwiftSyntax

/// One stored property that the generated code archives.
struct StoredProperty {
    /// The property's name (backticks removed).
    let name: String
    /// The key it is stored under: `@ArchiveKey` or its name.
    let key: String
    /// The type annotation, if written (`var age = 0` has none).
    let type: TypeSyntax?
    /// Whether the property has a value before decoding: an initializer, or an optional `var`
    /// (which Swift initializes to `nil`). Such a property may be absent from an archive.
    let hasDefault: Bool
    /// Whether the type is written optional (`T?`, `T!`, `Optional<T>`).
    let isOptional: Bool
    /// `let` rather than `var`.
    let isLet: Bool
    /// `weak` or `unowned`: archived conditionally (`encodeConditionalObject`), as `NSCoding` code writes
    /// a back-reference with `encodeConditionalObject:forKey:`, so that it never keeps an object in
    /// the archive that nothing else holds.
    let isWeak: Bool
    /// The binding, for diagnostics.
    let node: PatternBindingSyntax
    /// The declaration, for fix-its.
    let declaration: VariableDeclSyntax
    /// The `@ArchiveKey` attribute, for the duplicate-key diagnostic.
    let keyAttribute: AttributeSyntax?

    /// The name as written in generated code (`self.x`; backticks kept for keywords).
    let identifier: TokenSyntax
}

extension VariableDeclSyntax {
    /// The attribute named `name` (`@ArchiveKey`, `@KeyedArchiveMacros.ArchiveKey`), if present.
    func attribute(named name: String) -> AttributeSyntax? {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            if attribute.attributeName.trimmedDescription.split(separator: ".").last.map(String.init) == name {
                return attribute
            }
        }
        return nil
    }

    /// Whether a modifier with this keyword is present.
    func hasModifier(_ keyword: Keyword) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(keyword) }
    }

    /// Instance storage: not `static`/`class`, not computed. `lazy` storage is a cache by nature and
    /// is left out, as `@ArchiveIgnored` would.
    var isInstanceStorage: Bool {
        !hasModifier(.static) && !hasModifier(.class) && !hasModifier(.lazy)
    }
}

extension PatternBindingSyntax {
    /// Whether the binding has storage: no accessor block, or only observers (`willSet`/`didSet`).
    var isStored: Bool {
        guard let block = accessorBlock else { return true }
        switch block.accessors {
        case .getter:
            return false
        case .accessors(let list):
            return list.allSatisfy {
                $0.accessorSpecifier.tokenKind == .keyword(.willSet)
                    || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
            }
        }
    }
}

extension TypeSyntax {
    /// `T?`, `T!` or `Optional<T>` (also `Swift.Optional<T>`).
    var isOptional: Bool {
        if self.is(OptionalTypeSyntax.self) || self.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = self.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
        }
        if let member = self.as(MemberTypeSyntax.self) {
            return member.name.text == "Optional" && member.baseType.trimmedDescription == "Swift"
                && member.genericArgumentClause != nil
        }
        return false
    }

    /// The type as the generated `decode(T.self, …)` names it: `T!` becomes `T?` (an implicitly
    /// unwrapped optional is not a type that can be named in an expression).
    var decodableSpelling: String {
        if let iuo = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return "\(iuo.wrappedType.trimmedDescription)?"
        }
        return trimmedDescription
    }

    /// The part of the type that no keyed archive can hold, if any: a function, a tuple, a
    /// metatype, an existential or opaque type, `Any`/`AnyObject` — looked for inside optionals,
    /// arrays, dictionaries and generic arguments.
    var unarchivablePart: TypeSyntax? {
        if self.is(FunctionTypeSyntax.self) || self.is(TupleTypeSyntax.self) || self.is(MetatypeTypeSyntax.self)
            || self.is(SomeOrAnyTypeSyntax.self) || self.is(CompositionTypeSyntax.self)
        {
            // `(T)` is a parenthesised type, not a tuple.
            if let tuple = self.as(TupleTypeSyntax.self), tuple.elements.count == 1,
                let only = tuple.elements.first, only.firstName == nil
            {
                return only.type.unarchivablePart
            }
            return self
        }
        if let attributed = self.as(AttributedTypeSyntax.self) { return attributed.baseType.unarchivablePart }
        if let optional = self.as(OptionalTypeSyntax.self) { return optional.wrappedType.unarchivablePart }
        if let iuo = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return iuo.wrappedType.unarchivablePart }
        if let array = self.as(ArrayTypeSyntax.self) { return array.element.unarchivablePart }
        if let dictionary = self.as(DictionaryTypeSyntax.self) {
            return dictionary.key.unarchivablePart ?? dictionary.value.unarchivablePart
        }
        if let identifier = self.as(IdentifierTypeSyntax.self) {
            if identifier.name.text == "Any" || identifier.name.text == "AnyObject" { return self }
            for argument in identifier.genericArgumentClause?.arguments ?? [] {
                if case .type(let type) = argument.argument, let part = type.unarchivablePart { return part }
            }
        }
        return nil
    }
}

extension String {
    /// The text of a plain string literal (no interpolation, not raw, one line) as written, escapes
    /// kept, so that it can be written back into generated code; else `nil`.
    init?(literal expression: ExprSyntax) {
        guard let literal = expression.as(StringLiteralExprSyntax.self), literal.openingPounds == nil,
            literal.openingQuote.tokenKind == .stringQuote
        else { return nil }
        var text = ""
        for segment in literal.segments {
            guard case .stringSegment(let piece) = segment else { return nil }
            text += piece.content.text
        }
        self = text
    }
}
