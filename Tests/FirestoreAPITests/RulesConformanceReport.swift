import Foundation
import Testing

/// Sorts Hearth's answers to the recorded rules cases into verdict failures (false allows first),
/// other status differences and denial-message differences, and reports them.
struct RulesConformanceReport {
    /// How one step's answer differs from the emulator's.
    enum Kind: Int, Comparable {
        /// The emulator denies (403) and Hearth lets the request through: the worst failure.
        case falseAllow
        /// The emulator does not deny and Hearth answers 403.
        case falseDeny
        /// The emulator denies and Hearth fails the request with another error.
        case wrongDenialStatus
        /// A PUT …:securityRules the emulator and Hearth answer differently.
        case compile
        /// Both refuse the rules, but the first error's position (or text, where the case says
        /// `compare: message`) differs.
        case compileError
        /// Neither denies, but the statuses differ (not a rules verdict; reported only).
        case status
        /// Both deny, but Hearth's message lacks one of the emulator's `for '<method>' @ L<n>` fragments (reported only).
        case message

        /// Severity order: false allows first.
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        /// Whether this kind fails the test.
        var fails: Bool { self <= .compileError }

        /// The tag printed before a finding.
        var label: String {
            switch self {
            case .falseAllow: return "FALSE ALLOW"
            case .falseDeny: return "false deny"
            case .wrongDenialStatus: return "denied with another status"
            case .compile: return "compile verdict"
            case .compileError: return "compile error"
            case .status: return "status"
            case .message: return "message"
            }
        }
    }

    /// One difference.
    struct Finding {
        /// Its classification.
        let kind: Kind
        /// Case id (`#n` appended for the n-th step of a multi-step case).
        let id: String
        /// Both answers, one line.
        let detail: String
    }

    /// Case id → reason for the cases Hearth knowingly answers differently.
    let skips: [String: String]
    /// Every difference found so far.
    private(set) var findings: [Finding] = []
    /// Answers compared.
    private(set) var checkedSteps = 0
    /// Cases run.
    private(set) var checkedCases = 0

    /// An empty report honouring `skips`.
    init(skips: [String: String]) { self.skips = skips }

    /// The `for '<method>' @ L<n>` and `No matching allow statements` fragments of a denial message.
    static func fragments(_ message: String) -> Set<String> {
        var out = Set(message.matches(of: /for '[a-z]+' @ L[0-9]+/).map { String($0.output) })
        if message.contains("No matching allow statements") { out.insert("No matching allow statements") }
        return out
    }

    /// Compares one step's answer with the emulator's.
    ///
    /// A 404 counts as "allowed" only for reads (the rules let the caller learn the document is
    /// missing); for writes a 404 or 409 means a precondition was checked before the rules.
    mutating func check(_ id: String, title: String, isRead: Bool, expected: RulesCorpus.Outcome, status: Int, message: String?) {
        checkedSteps += 1
        let emulatorDenies = expected.status == 403
        let hearthDenies = status == 403
        let head = "\(title) — emulator \(expected.status)\(expected.errorStatus.map { " \($0)" } ?? ""), Hearth \(status)"
        if emulatorDenies && !hearthDenies {
            let allowed = status < 300 || (isRead && status == 404)
            findings.append(Finding(kind: allowed ? .falseAllow : .wrongDenialStatus, id: id,
                                    detail: "\(head); emulator says \(oneLine(expected.message)); Hearth says \(oneLine(message))"))
        } else if !emulatorDenies && hearthDenies {
            findings.append(Finding(kind: .falseDeny, id: id, detail: "\(head); Hearth says \(oneLine(message))"))
        } else if !emulatorDenies && expected.status != status {
            findings.append(Finding(kind: .status, id: id,
                                    detail: "\(head); emulator says \(oneLine(expected.message)); Hearth says \(oneLine(message))"))
        } else if emulatorDenies {
            let missing = Self.fragments(expected.message ?? "").subtracting(Self.fragments(message ?? ""))
            if !missing.isEmpty {
                findings.append(Finding(kind: .message, id: id,
                                        detail: "missing \(missing.sorted()); emulator: \(oneLine(expected.message)); Hearth: \(oneLine(message))"))
            }
        }
    }

    /// Compares the answers to a PUT …:securityRules.
    ///
    /// `compare` (`position` or `message`) also holds a refusal's first error to the
    /// emulator's line and column, and for `message` to its text.
    mutating func checkCompile(_ id: String, title: String, expected: RulesCorpus.Outcome, compare: String? = nil, status: Int, message: String?) {
        checkedSteps += 1
        if (expected.status == 200) != (status == 200) {
            findings.append(Finding(kind: .compile, id: id,
                                    detail: "\(title) — emulator \(expected.status) \(oneLine(expected.message)); Hearth \(status) \(oneLine(message))"))
            return
        }
        guard let compare, status != 200, let want = Self.firstEmulatorError(expected.message ?? "") else { return }
        let got = Self.firstHearthError(message ?? "")
        if got?.at != want.at || (compare == "message" && got?.text != want.text) {
            findings.append(Finding(kind: .compileError, id: id,
                                    detail: "\(title) — emulator L\(want.at) \(want.text); Hearth \(got.map { "L\($0.at) \($0.text)" } ?? oneLine(message))"))
        }
    }

    /// The first `L<line>:<col> <text>` line of the emulator's `Error compiling rules:` message.
    static func firstEmulatorError(_ message: String) -> (at: String, text: String)? {
        for line in message.split(separator: "\n") {
            if let m = line.wholeMatch(of: /L([0-9]+):([0-9]+) (.*)/) { return ("\(m.1):\(m.2)", String(m.3)) }
        }
        return nil
    }

    /// The first error (not warning) of Hearth's rendered diagnostics, `firestore.rules:<line>:<col>: <text>`.
    static func firstHearthError(_ message: String) -> (at: String, text: String)? {
        for line in message.split(separator: "\n") {
            guard let m = line.wholeMatch(of: /firestore\.rules:([0-9]+):([0-9]+): (.*)/), !m.3.hasPrefix("warning: ") else { continue }
            return ("\(m.1):\(m.2)", String(m.3))
        }
        return nil
    }

    /// Counts one case as run.
    mutating func countCase() { checkedCases += 1 }

    private func oneLine(_ s: String?) -> String {
        guard let s else { return "—" }
        let flat = s.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        return flat.count > 400 ? String(flat.prefix(400)) + "…" : flat
    }

    /// Records an issue per failing finding (false allows first) and per stale skip, and prints
    /// the reported-only differences as a summary.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        let failing = findings.filter { $0.kind.fails }
        let failingIDs = Set(failing.map(\.id))
        for f in failing.sorted(by: { ($0.kind, $0.id) < ($1.kind, $1.id) }) where skips[f.id] == nil {
            Issue.record("[\(f.kind.label)] \(f.id): \(f.detail)", sourceLocation: sourceLocation)
        }
        for (id, reason) in skips.sorted(by: { $0.key < $1.key }) where !failingIDs.contains(id) {
            Issue.record("\(id) is skipped (\(reason)) but now agrees: remove it from skips.json", sourceLocation: sourceLocation)
        }
        var summary = "Rules conformance: \(checkedCases) cases, \(checkedSteps) answers compared"
        for kind in [Kind.falseAllow, .falseDeny, .wrongDenialStatus, .compile, .compileError, .status, .message] {
            let n = findings.filter { $0.kind == kind && skips[$0.id] == nil }.count
            summary += "; \(kind.label): \(n)"
        }
        summary += "; skipped: \(skips.count)"
        print(summary)
        for f in findings where !f.kind.fails {
            print("  [\(f.kind.label)] \(f.id): \(f.detail)")
        }
        #expect(checkedCases > 0)
    }
}
