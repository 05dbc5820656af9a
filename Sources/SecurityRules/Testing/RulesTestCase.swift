import FirestoreModel

/// One decoded case of a rules test suite (format: `rules/README.md`).
struct RulesTestCase {
    /// The verdict a case expects.
    enum Expectation: String {
        /// Allowed or denied.
        case allow, deny
        /// The rules must not compile.
        case compileError = "compile_error"
    }

    /// Shown in PASS/FAIL lines.
    var name: String
    /// The rules to compile.
    var rulesText: String
    /// Their file name for diagnostics.
    var rulesFile: String
    /// The request to decide.
    var request: RulesRequest
    /// Stored documents.
    var before: [ResourcePath: Document]
    /// Documents after the commit (getAfter).
    var after: [ResourcePath: Document]
    /// The expected verdict.
    var expect: Expectation
    /// Expected substring of the emulator message or diagnostics.
    var message: String?
}

/// Reading suite JSON into requests; every malformed field is a `SuiteError` naming it.
struct SuiteDecoder {
    /// A malformed suite.
    struct SuiteError: Error, CustomStringConvertible {
        /// What is malformed.
        var message: String
        /// The message.
        var description: String { message }
    }

    /// The suite's database.
    let database: DatabaseID
    /// request.time of the case.
    let time: Timestamp

    /// 2024-05-01T12:00:00Z.
    static let defaultTime = Timestamp(seconds: 1_714_564_800, nanos: 0)  // 2024-05-01T12:00:00Z

    /// A document value from JSON with `$`-tagged specials (see rules/README.md).
    func value(_ j: TestJSON, requestTime: Timestamp) throws(SuiteError) -> Value {
        switch j {
        case .null: return .null
        case .bool(let b): return .boolean(b)
        case .int(let i): return .integer(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let a):
            var out: [Value] = []
            for e in a { out.append(try value(e, requestTime: requestTime)) }
            return .array(out)
        case .object(let members):
            if members.count == 1, let (tag, arg) = members.first, tag.hasPrefix("$") {
                return try special(tag, arg, requestTime: requestTime)
            }
            var out: FieldMap = [:]
            for (k, v) in members { out[k] = try value(v, requestTime: requestTime) }
            return .map(out)
        }
    }

    private func special(_ tag: String, _ arg: TestJSON, requestTime: Timestamp) throws(SuiteError) -> Value {
        switch tag {
        case "$timestamp":
            guard let s = arg.string, let t = Timestamp(rfc3339: s) else {
                throw SuiteError(message: "$timestamp needs an RFC 3339 string")
            }
            return .timestamp(t)
        case "$requestTime", "$serverTimestamp":
            let offset = arg.number ?? 0
            guard abs(offset) < 1e10 else { throw SuiteError(message: "$requestTime offset out of range") }
            let micros = Int64((offset * 1_000_000).rounded())
            return .timestamp(Timestamp(microseconds: requestTime.microseconds + micros))
        case "$double":
            if let n = arg.number { return .double(n) }
            switch arg.string {
            case "NaN": return .double(.nan)
            case "Infinity": return .double(.infinity)
            case "-Infinity": return .double(-.infinity)
            default: throw SuiteError(message: "$double needs a number, NaN, Infinity or -Infinity")
            }
        case "$ref":
            guard let s = arg.string else { throw SuiteError(message: "$ref needs a document path") }
            return .reference(database.resourceName(ResourcePath(relative: s)))
        case "$geo":
            guard let a = arg.array, a.count == 2, let lat = a[0].number, let lng = a[1].number else {
                throw SuiteError(message: "$geo needs [lat, lng]")
            }
            return .geoPoint(GeoPoint(latitude: lat, longitude: lng))
        case "$bytes":
            guard let a = arg.array else { throw SuiteError(message: "$bytes needs an array of byte values") }
            var out: [UInt8] = []
            for e in a {
                guard let i = e.int, i >= 0, i < 256 else { throw SuiteError(message: "$bytes element out of range") }
                out.append(UInt8(i))
            }
            return .bytes(out)
        case "$repeat":
            guard let a = arg.array, a.count == 2, let s = a[0].string, let n = a[1].int, n >= 0, n <= 2_000_000 else {
                throw SuiteError(message: "$repeat needs [string, count]")
            }
            return .string(String(repeating: s, count: Int(n)))
        default:
            throw SuiteError(message: "unknown special value \(tag)")
        }
    }

    /// A document body, nil for absent or null.
    /// - Throws: `SuiteError` when it is not an object.
    func fields(_ j: TestJSON?, requestTime: Timestamp, what: String) throws(SuiteError) -> FieldMap? {
        guard let j else { return nil }
        if case .null = j { return nil }
        guard case .map(let m) = try value(j, requestTime: requestTime) else { throw SuiteError(message: "\(what) must be an object") }
        return m
    }

    /// `null`, a uid string, or `{uid, token}`.
    /// - Throws: `SuiteError` for other shapes.
    func auth(_ j: TestJSON?) throws(SuiteError) -> AuthContext {
        guard let j else { return .unauthenticated }
        switch j {
        case .null: return .unauthenticated
        case .string(let uid):
            return .user(uid: uid, token: ["sub": .string(uid), "firebase": .map(["sign_in_provider": .string("google.com")])])
        case .object:
            guard let uid = j["uid"]?.string else { throw SuiteError(message: "auth needs a uid") }
            var token = try fields(j["token"], requestTime: time, what: "auth.token") ?? [:]
            if token["sub"] == nil { token["sub"] = .string(uid) }
            return .user(uid: uid, token: token)
        default: throw SuiteError(message: "auth must be null, a uid string or {uid, token}")
        }
    }

    /// Query operators by their SDK spelling.
    static let operators: [String: FieldOperator] = [
        "==": .equal, "!=": .notEqual, "<": .lessThan, "<=": .lessThanOrEqual, ">": .greaterThan, ">=": .greaterThanOrEqual,
        "array-contains": .arrayContains, "in": .in, "not-in": .notIn, "array-contains-any": .arrayContainsAny,
    ]
    /// Unary query operators.
    static let unaryOperators: [String: UnaryOperator] = [
        "is-null": .isNull, "is-not-null": .isNotNull, "is-nan": .isNaN, "is-not-nan": .isNotNaN,
    ]

    /// `[field, op, value]` or `[field, unary-op]`.
    func filter(_ j: TestJSON) throws(SuiteError) -> Filter {
        guard let a = j.array, a.count >= 2, let f = a[0].string, let op = a[1].string else {
            throw SuiteError(message: "a where entry is [field, op, value]")
        }
        let path: FieldPath
        do { path = try FieldPath(parsing: f) } catch { throw SuiteError(message: "bad field path \(f)") }
        if let u = Self.unaryOperators[op] { return .unary(path, u) }
        guard let o = Self.operators[op], a.count == 3 else { throw SuiteError(message: "unknown operator \(op)") }
        return .field(path, o, try value(a[2], requestTime: time))
    }

    /// A list of where entries.
    /// - Throws: `SuiteError` for a malformed entry.
    func conjunction(_ j: TestJSON?) throws(SuiteError) -> [Filter] {
        guard let list = j?.array else { return [] }
        var out: [Filter] = []
        for e in list { out.append(try filter(e)) }
        return out
    }

    /// `{where, or, limit, offset, orderBy, collectionGroup}`.
    func query(_ j: TestJSON) throws(SuiteError) -> QueryConstraints {
        var parts = try conjunction(j["where"])
        if let ors = j["or"]?.array {
            var branches: [Filter] = []
            for b in ors {
                let c = try conjunction(b)
                branches.append(c.count == 1 ? c[0] : .composite(.and, c))
            }
            parts.append(.composite(.or, branches))
        }
        let filter: Filter? = parts.isEmpty ? nil : (parts.count == 1 ? parts[0] : .composite(.and, parts))
        var orders: [Order] = []
        for o in j["orderBy"]?.array ?? [] {
            guard let a = o.array, let f = a.first?.string, let p = try? FieldPath(parsing: f) else {
                throw SuiteError(message: "orderBy entries are [field, asc|desc]")
            }
            orders.append(Order(p, a.count > 1 && a[1].string == "desc" ? .descending : .ascending))
        }
        var allDescendants = false
        if case .bool(true)? = j["collectionGroup"] { allDescendants = true }
        return QueryConstraints(
            filter: filter, limit: j["limit"]?.int.map { Int($0) }, offset: Int(j["offset"]?.int ?? 0), orderBy: orders,
            allDescendants: allDescendants)
    }
}
