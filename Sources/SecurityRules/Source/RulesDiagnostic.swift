/// One compile-time finding in a rules file: where, how bad, and what.
///
/// Rendered cel-go style: `file:line:col: message`, then the source line and a caret. The
/// quoted line is cut to at most `RulesSource.excerptWidth` bytes around the column (with `…`
/// at a cut end), so a diagnostic's size does not grow with the line it is on.
/// The emulator's `:securityRules` endpoint reports the same fields as
/// `{sourcePosition: {fileName, line, column}, description, severity}`
/// (docs/reference/firestore-wire.md §2.1).
public struct RulesDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable {
        /// The file does not compile.
        case error = "ERROR"
        /// Compiles, but probably not as meant.
        case warning = "WARNING"
    }

    /// Error or warning.
    public var severity: Severity
    /// What is wrong, in the compiler's words (e.g. `Missing 'if' before conditional expression.`).
    public var message: String
    /// The file the finding is in.
    public var fileName: String
    /// Where it is.
    public var position: SourcePosition
    /// The source line the position is on (or the part of it around the column), kept for rendering.
    public var sourceLine: String
    /// 1-based column of `position` within `sourceLine`, in Unicode scalars.
    public var caretColumn: Int

    /// Creates a diagnostic at `position` of `source`.
    public init(_ severity: Severity, _ message: String, at position: SourcePosition, in source: RulesSource) {
        self.severity = severity
        self.message = message
        self.fileName = source.fileName
        self.position = position
        (self.sourceLine, self.caretColumn) = source.excerpt(line: position.line, at: position.offset)
    }

    /// `file:line:col: message` + newline + source line + newline + caret under the column.
    public var rendered: String {
        var caretPad = ""
        for (i, c) in sourceLine.unicodeScalars.enumerated() where i < caretColumn - 1 {
            caretPad.append(c == "\t" ? "\t" : " ")
        }
        let prefix = severity == .warning ? "warning: " : ""
        return "\(fileName):\(position.line):\(position.column): \(prefix)\(message)\n\(sourceLine)\n\(caretPad)^"
    }

    /// Same as `rendered`.
    public var description: String { rendered }
}

extension RulesDiagnostic {
    /// Most diagnostics one compilation reports; the rest are summarised in one more line.
    public static let maxReported = 50

    /// `diagnostics` (in source order) cut to `maxReported`, plus one `… and N more` entry
    /// when some were cut or `suppressed` others were never recorded.
    public static func limited(_ diagnostics: [RulesDiagnostic], suppressed: Int = 0) -> [RulesDiagnostic] {
        let hidden = max(0, diagnostics.count - maxReported) + suppressed
        guard hidden > 0, let anchor = diagnostics.count > maxReported ? diagnostics[maxReported] : diagnostics.last else {
            return diagnostics
        }
        var summary = anchor
        summary.message = "… and \(hidden) more diagnostic\(hidden == 1 ? "" : "s") not shown."
        return Array(diagnostics.prefix(maxReported)) + [summary]
    }
}

/// The rules file did not compile; `diagnostics` lists the errors found (not only the first),
/// at most `RulesDiagnostic.maxReported` of them plus a summary line.
public struct RulesCompileError: Error, Sendable, CustomStringConvertible {
    /// Every finding, errors and warnings, in source order.
    public var diagnostics: [RulesDiagnostic]

    /// Creates the error.
    public init(diagnostics: [RulesDiagnostic]) { self.diagnostics = diagnostics }

    /// Every diagnostic rendered, separated by newlines.
    public var description: String { diagnostics.map(\.rendered).joined(separator: "\n") }
}
