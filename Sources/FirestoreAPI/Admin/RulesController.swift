import FirestoreEngine
import FirestoreModel
import FoundationEssentials
import GoogleWire
import HTTPServer
import SecurityRules
import Synchronization

/// Security rules in force per project: loaded from the file `firebase.json` names, hot
/// reloaded, replaced by `PUT /emulator/v1/projects/{p}:securityRules`, with coverage and the
/// latest denial explanations. A rules text with errors is rejected with every diagnostic and
/// the rules in force stay. Source: docs/reference/firestore-wire.md §2.1, §2.7; docs/reference/security-rules.md §8.
public final class RulesController: Sendable {
    let engine: FirestoreEngine
    let log: @Sendable (String) -> Void
    let state = Mutex<State>(State())
    /// Every decided request (grants and denials), for the UI's requests view.
    public let journal = RequestJournal()
    /// How many explanations each project keeps.
    public static let explanationsKept = 100

    struct Installed {
        var fileName: String
        var content: String
        var ruleset: Ruleset
        /// When these rules were installed (coverage counts from then).
        var loadedAt = FirestoreEngine.systemClock()
    }

    struct State {
        var defaultRules: Installed?
        var byProject: [String: Installed] = [:]
    }

    /// Creates a controller that installs policies into `engine`.
    public init(engine: FirestoreEngine, log: @escaping @Sendable (String) -> Void) {
        self.engine = engine
        self.log = log
    }

    /// Compiles and installs the rules file for every project without rules of its own.
    /// - Throws: `RulesLoadError` with every diagnostic (`file:line:col`, source line, caret)
    ///   when the file cannot be read or compiled; the rules in force stay.
    public func loadDefault(fromFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw RulesLoadError(description: "\(path): cannot read the rules file")
        }
        let ruleset: Ruleset
        do {
            ruleset = try Ruleset(source: text, fileName: path)
        } catch {
            throw RulesLoadError(description: error.description)
        }
        for w in ruleset.warnings { log("rules: " + w.rendered) }
        state.withLock { $0.defaultRules = Installed(fileName: path, content: text, ruleset: ruleset) }
        engine.setDefaultPolicy(policy(ruleset, project: nil))
        journal.announceRulesReplaced()
        log("rules: loaded \(path)")
    }

    /// The policy for `ruleset`, recording denials for `project` (nil: the request's project).
    func policy(_ ruleset: Ruleset, project: String?) -> RulesAccessPolicy {
        let journal = self.journal
        return RulesAccessPolicy(ruleset: ruleset, onDenial: { [log] request, explanation in
            log("rules: denied \(request.method.rawValue) \(request.database.resourceName(request.path)) for \(Self.who(request.auth))\n  \(explanation.description.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  "))")
        }, onDecision: { request, decision in
            journal.record(project: project ?? request.database.project, request: request, decision: decision)
        })
    }

    static func who(_ auth: AuthContext) -> String {
        switch auth {
        case .admin: return "owner"
        case .unauthenticated: return "unauthenticated"
        case .user(let uid, _): return "uid \(uid)"
        }
    }

    /// `PUT …:securityRules` with `{"rules":{"files":[{"name"?, "content"}]}, "ignore_errors"?}`.
    /// Invalid rules → 400 INVALID_ARGUMENT listing every diagnostic (or, with `ignore_errors`,
    /// 200 with `issues`); the rules in force stay.
    public func replace(project: String, body: [UInt8]) -> HTTPResponse {
        do throws(FirestoreError) {
            let json = try JSONValue.parse(body)
            guard case .array(let files)? = json["rules"]?["files"], case .string(let content)? = files.first?["content"]
            else { throw .invalidArgument("Expected {\"rules\":{\"files\":[{\"content\": \"…\"}]}}.") }
            var name = "firestore.rules"
            if case .string(let n)? = files.first?["name"] { name = n }
            let ignoreErrors = json["ignore_errors"] == .bool(true) || json["ignoreErrors"] == .bool(true)
            let ruleset: Ruleset
            do {
                ruleset = try Ruleset(source: content, fileName: name)
            } catch {
                log("rules: rejected rules for project \(project); the rules in force stay:\n\(error.description)")
                if ignoreErrors { return .json(200, Self.issues(error.diagnostics, name: name).serialized()) }
                throw .invalidArgument(error.description)
            }
            state.withLock { $0.byProject[project] = Installed(fileName: name, content: content, ruleset: ruleset) }
            engine.setPolicy(policy(ruleset, project: project), forProject: project)
            journal.announceRulesReplaced()
            log("rules: replaced rules for project \(project)")
            return .json(200, Self.issues(ruleset.warnings, name: name).serialized())
        } catch {
            return FirestoreRESTService.errorResponse(error)
        }
    }

    static func issues(_ diagnostics: [RulesDiagnostic], name: String) -> JSONValue {
        guard !diagnostics.isEmpty else { return .object([]) }
        return .object([
            "issues": .array(diagnostics.map { d in
                .object([
                    "sourcePosition": .object([
                        "fileName": .string(name), "fileIndex": .integer(0), "line": .integer(d.position.line),
                        "column": .integer(d.position.column),
                    ]),
                    "description": .string(d.message),
                    "severity": .string(d.severity == .error ? "ERROR" : "WARNING"),
                ])
            })
        ])
    }

    func installed(_ project: String) -> Installed? { state.withLock { $0.byProject[project] ?? $0.defaultRules } }

    /// `GET …:securityRules`: the rules source in force.
    public func current(project: String) -> HTTPResponse {
        guard let r = installed(project) else { return .json(200, Array("{}".utf8)) }
        let json: JSONValue = .object([
            "rules": .object(["files": .array([.object(["name": .string(r.fileName), "content": .string(r.content)])])])
        ])
        return .json(200, json.serialized())
    }

    /// `GET …:ruleCoverage`: per-expression evaluation counts as JSON.
    public func coverageJSON(project: String) -> HTTPResponse {
        guard let r = installed(project) else { return .json(200, Array("{}".utf8)) }
        return .json(200, r.ruleset.coverageJSON())
    }

    /// `GET …:ruleCoverage.html`: the rules source annotated with evaluation counts.
    public func coverageHTML(project: String) -> HTTPResponse {
        let html = installed(project)?.ruleset.coverageHTML() ?? "<html><body>No rules loaded.</body></html>"
        var r = HTTPResponse.text(200, html)
        r.headers.replaceOrAdd("content-type", "text/html; charset=utf-8")
        return r
    }

    /// `GET …:ruleExplanations`: the latest `explanationsKept` denials (newest last), each with
    /// the emulator's message and Hearth's full explanation: the denials of the requests journal
    /// (so they are bounded with it, however many projects a test suite makes).
    public func explanations(project: String) -> HTTPResponse {
        let denials = journal.entries(project: project).filter { !$0.decision.allowed }.suffix(Self.explanationsKept)
        let list: [JSONValue] = denials.map { e in
            .object([
                "time": .string(e.time.rfc3339),
                "method": .string(e.method.rawValue),
                "path": .string(e.database.resourceName(e.path)),
                "auth": .string(Self.who(e.auth)),
                "message": .string(e.decision.explanation.emulatorMessage),
                "explanation": .string(e.decision.explanation.description),
            ])
        }
        return .json(200, JSONValue.object(["explanations": .array(list)]).serialized())
    }

    /// `DELETE …:ruleExplanations`: forgets them (with the project's requests journal).
    public func clearExplanations(project: String) -> HTTPResponse {
        journal.clear(project: project)
        return .json(200, Array("{}".utf8))
    }

    /// `GET …:requests[?after=ID]`: the requests the rules decided (`RequestJournal` shape).
    public func requests(project: String, after: Int) -> HTTPResponse {
        .json(200, journal.json(project: project, after: after).serialized())
    }

    /// The rules source in force for `project`, its file name and when it was installed; nil
    /// without rules.
    public func source(project: String) -> (fileName: String, content: String, loadedAt: Timestamp)? {
        installed(project).map { ($0.fileName, $0.content, $0.loadedAt) }
    }

}

/// Rules that could not be loaded, with every diagnostic rendered.
public struct RulesLoadError: Error, CustomStringConvertible {
    /// The rendered diagnostics.
    public var description: String
}
