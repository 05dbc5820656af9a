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
        let stamp = rfc3339(secondsSinceEpoch: 1_700_000_000 + n)
        return """
            {"n":{"integerValue":"\(n)"},"name":{"stringValue":"item-\(n)"},"even":{"booleanValue":\(n % 2 == 0)},\
            "score":{"doubleValue":\(Double(n % 1000) / 8)},"at":{"timestampValue":"\(stamp)"},\
            "tags":{"arrayValue":{"values":[{"stringValue":"t\(n % 10)"},{"stringValue":"u\(n % 7)"}]}},\
            "meta":{"mapValue":{"fields":{"owner":{"stringValue":"user\(n % 100)"},"rank":{"integerValue":"\(n % 13)"}}}},\
            "where":{"geoPointValue":{"latitude":37.77,"longitude":-122.41}},"group":{"integerValue":"\(n % 16)"},\
            "note":{"stringValue":"a short note so the document is not trivially small"}}
            """
    }

    /// `2023-11-14T22:13:20Z`: what `ISO8601DateFormatter` writes for that instant, computed
    /// without a formatter (one formatter per document made seeding 1,000,000 documents
    /// client-bound). Days to civil date: Howard Hinnant, "chrono-Compatible Low-Level Date
    /// Algorithms", `civil_from_days`.
    static func rfc3339(secondsSinceEpoch t: Int) -> String {
        let days = t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
        let secondOfDay = t - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
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
