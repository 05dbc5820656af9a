import FirestoreModel
import Testing

@testable import SecurityRules

/// Evaluates one expression; fails the test when it does not parse.
func evaluate(_ text: String, _ variables: [String: RulesValue] = [:], limits: RulesLimits = RulesLimits()) -> Result<
    RulesValue, RulesEvalError
> {
    do {
        return try RulesExpression(text).evaluate(variables: variables, limits: limits)
    } catch {
        Issue.record("does not parse: \(text)\n\(error)")
        return .failure(RulesEvalError("parse", at: SourcePosition(line: 0, column: 0, offset: 0)))
    }
}

/// The literal text of the value, or `ERR(message)`.
func show(_ r: Result<RulesValue, RulesEvalError>) -> String {
    switch r {
    case .success(let v): return v.literalText
    case .failure(let e): return "ERR(\(e.denialText))"
    }
}

/// The AST dump of an expression, or the diagnostics.
func dump(_ text: String) -> String {
    do { return try RulesExpression(text).dump } catch { return "ERROR: \(error)" }
}

/// Wraps a condition in a catch-all v2 rules file.
func wrapped(_ condition: String, functions: String = "") -> String {
    """
    rules_version = '2';
    service cloud.firestore {
      match /databases/{database}/documents {
        \(functions)
        match /{document=**} {
          allow read, write: if \(condition);
        }
      }
    }
    """
}

let testDatabase = DatabaseID(project: "demo-project")
let testTime = Timestamp(seconds: 1_714_564_800, nanos: 0)

/// A get request for `path` by `uid` (nil = unauthenticated).
func getRequest(_ path: String, uid: String? = "alice", resource: FieldMap? = [:]) -> RulesRequest {
    let p = ResourcePath(relative: path)
    return RulesRequest(
        database: testDatabase, method: .get, path: p, auth: uid.map { .user(uid: $0, token: [:]) } ?? .unauthenticated, time: testTime,
        resource: resource.map { Document(path: p, fields: $0, createTime: testTime, updateTime: testTime) })
}

/// Document access over a dictionary.
struct MapAccess: RulesDocumentAccess {
    var docs: [String: FieldMap]
    func get(_ path: ResourcePath) throws -> Document? {
        docs[path.relativeString].map { Document(path: path, fields: $0, createTime: testTime, updateTime: testTime) }
    }
    func getAfter(_ path: ResourcePath) throws -> Document? { try get(path) }
}
