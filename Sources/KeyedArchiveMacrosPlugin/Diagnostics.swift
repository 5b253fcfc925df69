// Sources/KeyedArchiveMacrosPlugin/Diagnostics.swift - What `@KeyedArchivable` says when it can't.

import SwiftDiagnostics
import SwiftSyntax

/// Every diagnostic the macros emit: one case each, so the tests can name them.
enum ArchiveDiagnostic: String {
    case notAClass
    case classNameNotLiteral
    case cyclesNotLiteral
    case keyNotLiteral
    case emptyKey
    case unarchivableType
    case letWithDefault
    case letInTwoPhase
    case duplicateKey
    case handWritten
    case missingInit
    case initNotRequired
    case subclassPropertyWithoutDefault

    var diagnosticID: MessageID { MessageID(domain: "KeyedArchiveMacros", id: rawValue) }
}

/// A diagnostic with its text filled in.
struct ArchiveMessage: DiagnosticMessage {
    let kind: ArchiveDiagnostic
    let message: String
    var diagnosticID: MessageID { kind.diagnosticID }
    var severity: DiagnosticSeverity { .error }
}

/// A fix-it's label.
struct ArchiveFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "KeyedArchiveMacros", id: message) }
}

/// Collects the diagnostics of one expansion.
struct Diagnoser {
    var diagnostics: [Diagnostic] = []

    mutating func error(
        _ kind: ArchiveDiagnostic, at node: some SyntaxProtocol, _ message: String, fixIts: [FixIt] = [],
        notes: [Note] = []
    ) {
        diagnostics.append(
            Diagnostic(
                node: Syntax(node), message: ArchiveMessage(kind: kind, message: message), notes: notes, fixIts: fixIts)
        )
    }

    var hasErrors: Bool { !diagnostics.isEmpty }
}

/// A note's text.
struct ArchiveNote: NoteMessage {
    let message: String
    var noteID: MessageID { MessageID(domain: "KeyedArchiveMacros", id: "note") }
}

extension FixIt {
    /// Inserts `@ArchiveIgnored ` before a property declaration.
    static func ignore(_ declaration: VariableDeclSyntax) -> FixIt {
        var marked = declaration
        let attribute = AttributeSyntax(
            atSign: .atSignToken(leadingTrivia: declaration.leadingTrivia),
            attributeName: IdentifierTypeSyntax(name: .identifier("ArchiveIgnored")),
            trailingTrivia: .space
        )
        marked.leadingTrivia = []
        marked.attributes = [.attribute(attribute)] + marked.attributes
        return FixIt(
            message: ArchiveFixIt(message: "mark it @ArchiveIgnored"),
            changes: [.replace(oldNode: Syntax(declaration), newNode: Syntax(marked))]
        )
    }

    /// Replaces `let` with `var`.
    static func makeVar(_ declaration: VariableDeclSyntax) -> FixIt {
        let specifier = declaration.bindingSpecifier
        return FixIt(
            message: ArchiveFixIt(message: "make it 'var'"),
            changes: [
                .replace(oldNode: Syntax(specifier), newNode: Syntax(specifier.with(\.tokenKind, .keyword(.var))))
            ]
        )
    }

    /// Inserts `required ` before an initializer.
    static func makeRequired(_ initializer: InitializerDeclSyntax) -> FixIt {
        var marked = initializer
        let modifier = DeclModifierSyntax(name: .keyword(.required, trailingTrivia: .space))
        if let first = marked.modifiers.first {
            // `required` goes first and takes over the first modifier's leading trivia (indentation).
            var modifiers = marked.modifiers
            modifiers[modifiers.startIndex] = first.with(\.leadingTrivia, [])
            marked.modifiers = [modifier.with(\.leadingTrivia, first.leadingTrivia)] + modifiers
        } else {
            marked.modifiers = [modifier.with(\.leadingTrivia, initializer.initKeyword.leadingTrivia)]
            marked.initKeyword = marked.initKeyword.with(\.leadingTrivia, [])
        }
        return FixIt(
            message: ArchiveFixIt(message: "make it 'required'"),
            changes: [.replace(oldNode: Syntax(initializer), newNode: Syntax(marked))]
        )
    }
}
