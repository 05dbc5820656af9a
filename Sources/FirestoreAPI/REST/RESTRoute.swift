import FirestoreModel
import FirestoreRPC
import GoogleWire

/// A parsed Firestore REST v1 URL: which method, on which database and resource.
///
/// Shapes (docs/reference/firestore-wire.md §1.2): `/v1/projects/{p}/databases/{d}/documents[/{path}][:verb]`
/// (also `/v1beta1/`). Each path segment is percent-decoded on its own, so an id may hold any
/// character production allows (`:`, ` ` as `%20`, `@`, `+`, `=`, `%25`, UTF-8) — except `/`:
/// `%2F` decodes to a `/` inside one id, which `ResourcePath.validateIDs` refuses
/// (INVALID_ARGUMENT) rather than reading it as a path separator as the emulator does.
///
/// Custom verbs: the text after the **last** `:` of the raw last segment is a verb only when it
/// is one of Firestore's (`RESTRoute.verbs`) and the method is POST (every verb is a POST).
/// Otherwise the colon belongs to the id: `GET …/c/a:b`, `PATCH …/c/x:runQuery`,
/// `DELETE …/c/a:commit` name documents, `POST …/c:b` creates in collection `c:b`, and
/// `POST …/c/a:b:listCollectionIds` lists under document `c/a:b`. An encoded colon (`%3A`) is
/// never a verb separator. Google's HTTP path matching splits a verb at the last colon only
/// for registered verbs (googleapis `google/api/http.proto`); the emulator splits at the first
/// colon and so cannot list under an id with a colon (firebase/firebase-tools-ui #645, #566).
public struct RESTRoute: Sendable, Equatable {
    /// The database.
    public var database: DatabaseID
    /// The path after `documents` (decoded segments); empty for the documents root.
    public var path: ResourcePath
    /// The custom verb after `:` (`commit`, `runQuery`, …), or nil.
    public var verb: String?

    /// Firestore REST v1's custom verbs, from `FirestoreMethod`'s table (all bound to POST).
    public static var verbs: Set<String> { FirestoreMethod.restVerbs }

    /// Parses the percent-encoded path of a request target (no query string).
    /// - Parameters:
    ///   - rawPath: the target's path, still percent-encoded.
    ///   - method: the HTTP method; only a POST can carry a custom verb.
    /// - Returns: nil when the path is not under `/v1/projects/{p}/databases/{d}/documents`.
    /// - Throws: `.invalidArgument` for bad percent-encoding or invalid ids (including a
    ///   decoded `/` inside an id).
    public static func parse(_ rawPath: String, method: String) throws(FirestoreError) -> RESTRoute? {
        var raw = rawPath
        if raw.hasPrefix("/v1/") {
            raw.removeFirst(4)
        } else if raw.hasPrefix("/v1beta1/") {
            raw.removeFirst(9)
        } else {
            return nil
        }
        // Split on the byte `/` (not on Characters): every request's path goes through here.
        var rawSegments = raw.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { String(raw[$0.startIndex..<$0.endIndex]) }
        var verb: String?
        if method == "POST", let last = rawSegments.last, let colon = last.lastIndex(of: ":") {
            let suffix = String(last[last.index(after: colon)...])
            if verbs.contains(suffix) {
                verb = suffix
                rawSegments[rawSegments.count - 1] = String(last[..<colon])
            }
        }
        if rawSegments.last == "" { rawSegments.removeLast() }
        let segments = try rawSegments.map { (s: String) throws(FirestoreError) -> String in
            guard let d = PercentEncoding.decode(s) else { throw .invalidArgument("Invalid percent-encoding in path segment \"\(s)\".") }
            return d
        }
        guard segments.count >= 5, segments[0] == "projects", segments[2] == "databases", segments[4] == "documents"
        else { return nil }
        guard !segments[1].isEmpty, !segments[3].isEmpty else { throw .invalidArgument("Project and database ids must not be empty.") }
        let path = ResourcePath(Array(segments.dropFirst(5)))
        try path.validateIDs()
        return RESTRoute(database: DatabaseID(project: segments[1], database: segments[3]), path: path, verb: verb)
    }
}
