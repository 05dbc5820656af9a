import FirestoreModel
import Foundation

/// The Firestore REST v1 JSON bodies the HTTP workloads send (Firestore REST v1
/// `projects.databases.documents.commit` / `runQuery`), written by hand so the same bytes go
/// to Hearth and to the official emulator.
enum FirestoreJSON {
    /// The project every HTTP workload uses.
    static let project = "bench"
    /// `projects/bench/databases/(default)/documents`.
    static let documentsRoot = "projects/\(project)/databases/(default)/documents"
    /// The URL path of the documents root.
    static let documentsPath = "/v1/" + documentsRoot
    /// The collection the range query reads.
    static let queryCollection = "items"
    /// The placeholder `Wrk` replaces by a fresh token in every Commit body.
    static let uniqueMarker = "@ID@"

    /// The `fields` object of item `n`: ten fields of the common kinds (integer, string, bool,
    /// double, timestamp, array, map, geo point), about 600 bytes of JSON.
    static func fields(_ n: Int) -> String {
        let stamp = Timestamp(seconds: Int64(1_700_000_000 + n), nanos: 0).rfc3339
        return """
            {"n":{"integerValue":"\(n)"},"name":{"stringValue":"item-\(n)"},"even":{"booleanValue":\(n % 2 == 0)},\
            "score":{"doubleValue":\(Double(n % 1000) / 8)},"at":{"timestampValue":"\(stamp)"},\
            "tags":{"arrayValue":{"values":[{"stringValue":"t\(n % 10)"},{"stringValue":"u\(n % 7)"}]}},\
            "meta":{"mapValue":{"fields":{"owner":{"stringValue":"user\(n % 100)"},"rank":{"integerValue":"\(n % 13)"}}}},\
            "where":{"geoPointValue":{"latitude":37.77,"longitude":-122.41}},"group":{"integerValue":"\(n % 16)"},\
            "note":{"stringValue":"a short note so the document is not trivially small"}}
            """
    }

    /// One `update` write of `fields(n)` to `path` (relative to the documents root).
    static func updateWrite(path: String, n: Int) -> String {
        #"{"update":{"name":"\#(documentsRoot)/\#(path)","fields":\#(fields(n))}}"#
    }

    /// A commit body of the given writes.
    static func commit(_ writes: [String]) -> String {
        #"{"writes":["# + writes.joined(separator: ",") + "]}"
    }

    /// The Commit workload's body: one new document `commits/<unique>` per request.
    static let commitWorkloadBody = commit([updateWrite(path: "commits/" + uniqueMarker, n: 7)])

    /// `n >= low AND n < low + count` over `items`.
    static func rangeQuery(low: Int, count: Int) -> String {
        """
        {"structuredQuery":{"from":[{"collectionId":"\(queryCollection)"}],"where":{"compositeFilter":{"op":"AND","filters":[\
        {"fieldFilter":{"field":{"fieldPath":"n"},"op":"GREATER_THAN_OR_EQUAL","value":{"integerValue":"\(low)"}}},\
        {"fieldFilter":{"field":{"fieldPath":"n"},"op":"LESS_THAN","value":{"integerValue":"\(low + count)"}}}]}}}}
        """
    }

    /// `group == 3 ORDER BY n DESC LIMIT 20` over `items` (issue 13's `where bucket == 3 order
    /// by i desc limit 20`: one equality, the order on another field, a limit).
    static let equalityOrderQuery = """
        {"structuredQuery":{"from":[{"collectionId":"\(queryCollection)"}],\
        "where":{"fieldFilter":{"field":{"fieldPath":"group"},"op":"EQUAL","value":{"integerValue":"3"}}},\
        "orderBy":[{"field":{"fieldPath":"n"},"direction":"DESCENDING"}],"limit":20}}
        """

    /// The `firestore.indexes.json` with the composite index `equalityOrderQuery` needs in
    /// production: `items (group ASC, n DESC)`.
    static let equalityOrderIndexes = """
        {"indexes":[{"collectionGroup":"\(queryCollection)","queryScope":"COLLECTION","fields":[\
        {"fieldPath":"group","order":"ASCENDING"},{"fieldPath":"n","order":"DESCENDING"}]}],"fieldOverrides":[]}
        """

    /// Writes `count` items (`items/item00000042`) in commits of 500 writes to `baseURL`.
    /// - Throws: `BenchError.badResponse` when a commit fails.
    static func seedItems(_ count: Int, baseURL: String) async throws(BenchError) {
        var start = 0
        while start < count {
            let end = min(start + 500, count)
            let writes = (start..<end).map { updateWrite(path: "\(queryCollection)/" + String(format: "item%08d", $0), n: $0) }
            _ = try await SimpleHTTP.expectOK("POST", baseURL + documentsPath + ":commit", json: commit(writes))
            start = end
        }
    }
}
