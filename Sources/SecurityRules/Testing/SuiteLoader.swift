import FirestoreModel
import FoundationEssentials

/// Turns one suite's JSON into runnable cases: resolves the rules text (file, inline text, or
/// a condition wrapped in a catch-all match), seeds documents, and builds each request.
struct SuiteLoader {
    /// The suite document.
    let suite: TestJSON
    /// Directory of the suite file (rules paths are relative to it).
    let directory: String
    /// The suite file.
    let fileName: String

    /// A malformed suite.
    typealias SuiteError = SuiteDecoder.SuiteError

    /// `condition` (and optional `functions`) wrapped into a complete v2 file.
    static func wrap(condition: String, functions: String) -> String {
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

    /// The rules text and file name a suite or case names.
    /// - Throws: `SuiteError` when none is given or the file cannot be read.
    func rules(_ j: TestJSON, fallback: (String, String)?) throws -> (text: String, file: String) {
        if let path = j["rules"]?.string {
            let full = path.hasPrefix("/") ? path : URL(fileURLWithPath: directory).appendingPathComponent(path).path
            guard let data = FileManager.default.contents(atPath: full) else { throw SuiteError(message: "Cannot read rules file \(path)") }
            return (String(decoding: data, as: UTF8.self), URL(fileURLWithPath: path).lastPathComponent)
        }
        if let text = j["rulesText"]?.string { return (text, "inline.rules") }
        if let cond = j["condition"]?.string {
            return (Self.wrap(condition: cond, functions: j["functions"]?.string ?? (suite["functions"]?.string ?? "")), "condition.rules")
        }
        if let f = fallback { return f }
        throw SuiteError(message: "no rules: give rules, rulesText or condition")
    }

    /// Every case of the suite.
    /// - Throws: `SuiteError` naming the first malformed case.
    func cases() throws -> [RulesTestCase] {
        let project = suite["project"]?.string ?? "demo-project"
        let database = DatabaseID(project: project, database: suite["database"]?.string ?? "(default)")
        var suiteTime = SuiteDecoder.defaultTime
        if let t = suite["time"]?.string {
            guard let parsed = Timestamp(rfc3339: t) else { throw SuiteError(message: "bad suite time \(t)") }
            suiteTime = parsed
        }
        let suiteRules: (String, String)? =
            (suite["rules"] != nil || suite["rulesText"] != nil || suite["condition"] != nil)
            ? try rules(suite, fallback: nil) : nil
        let baseDecoder = SuiteDecoder(database: database, time: suiteTime)
        var seeded: [ResourcePath: Document] = [:]
        for (path, fields) in suite["documents"]?.members ?? [] {
            let p = ResourcePath(relative: path)
            let f = try baseDecoder.fields(fields, requestTime: suiteTime, what: "document \(path)") ?? [:]
            seeded[p] = Document(path: p, fields: f, createTime: suiteTime, updateTime: suiteTime)
        }
        var out: [RulesTestCase] = []
        for (index, c) in (suite["cases"]?.array ?? []).enumerated() {
            let name = c["name"]?.string ?? "case \(index + 1)"
            do {
                out.append(try testCase(c, name: name, database: database, suiteTime: suiteTime, seeded: seeded, suiteRules: suiteRules))
            } catch {
                throw SuiteError(message: "\(name): \(error)")
            }
        }
        return out
    }

    /// One case: request, documents before and after, expectation.
    /// - Throws: `SuiteError` for malformed fields.
    func testCase(
        _ c: TestJSON, name: String, database: DatabaseID, suiteTime: Timestamp, seeded: [ResourcePath: Document],
        suiteRules: (String, String)?
    )
        throws -> RulesTestCase
    {
        var time = suiteTime
        if let t = c["time"]?.string {
            guard let parsed = Timestamp(rfc3339: t) else { throw SuiteError(message: "bad time \(t)") }
            time = parsed
        }
        let decoder = SuiteDecoder(database: database, time: time)
        let (text, file) = try rules(c, fallback: suiteRules)
        let expect = RulesTestCase.Expectation(rawValue: c["expect"]?.string ?? "") ?? .deny
        guard c["expect"]?.string.flatMap(RulesTestCase.Expectation.init(rawValue:)) != nil else {
            throw SuiteError(message: "expect must be allow, deny or compile_error")
        }
        var before = seeded
        for (path, fields) in c["documents"]?.members ?? [] {
            let p = ResourcePath(relative: path)
            let f = try decoder.fields(fields, requestTime: time, what: "document \(path)") ?? [:]
            before[p] = Document(path: p, fields: f, createTime: suiteTime, updateTime: suiteTime)
        }
        let methodName = c["method"]?.string ?? "get"
        guard let method = RulesMethod(rawValue: methodName) else { throw SuiteError(message: "unknown method \(methodName)") }
        let path = ResourcePath(relative: c["path"]?.string ?? "test/doc")
        if c["existing"] != nil {
            if let f = try decoder.fields(c["existing"], requestTime: time, what: "existing") {
                before[path] = Document(path: path, fields: f, createTime: suiteTime, updateTime: suiteTime)
            } else {
                before[path] = nil
            }
        }
        var after = before
        var requestResource: Document?
        if method == .create || method == .update {
            var fields: FieldMap
            if let merge = try decoder.fields(c["merge"], requestTime: time, what: "merge") {
                fields = before[path]?.fields ?? [:]
                for (k, v) in merge { fields[k] = v }
            } else {
                fields = try decoder.fields(c["data"], requestTime: time, what: "data") ?? [:]
            }
            for d in c["deleteFields"]?.array ?? [] { if let k = d.string { fields[k] = nil } }
            let doc = Document(path: path, fields: fields, createTime: before[path]?.createTime ?? time, updateTime: time)
            requestResource = doc
            after[path] = doc
        } else if method == .delete {
            after[path] = nil
        }
        for w in c["batch"]?.array ?? [] {
            guard let p = w["path"]?.string.map({ ResourcePath(relative: $0) }) else {
                throw SuiteError(message: "batch entries need a path")
            }
            if case .bool(true)? = w["delete"] {
                after[p] = nil
            } else if let m = try decoder.fields(w["merge"], requestTime: time, what: "batch merge") {
                var f = after[p]?.fields ?? [:]
                for (k, v) in m { f[k] = v }
                after[p] = Document(path: p, fields: f, createTime: time, updateTime: time)
            } else {
                let f = try decoder.fields(w["data"], requestTime: time, what: "batch data") ?? [:]
                after[p] = Document(path: p, fields: f, createTime: time, updateTime: time)
            }
        }
        var query: QueryConstraints?
        if method == .list { query = try decoder.query(c["query"] ?? .object([])) }
        let request = RulesRequest(
            database: database, method: method, path: path, auth: try decoder.auth(c["auth"]), time: time,
            resource: method == .list ? nil : before[path], requestResource: requestResource, query: query)
        return RulesTestCase(
            name: name, rulesText: text, rulesFile: file, request: request, before: before, after: after, expect: expect,
            message: c["message"]?.string)
    }
}
