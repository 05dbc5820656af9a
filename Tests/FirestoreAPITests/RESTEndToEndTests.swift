import FirestoreAPI
import Foundation
import Testing

/// Firestore REST v1 over real sockets, shaped as the Firebase clients send it (docs/reference/firestore-wire.md §1.4a).
@Suite(.serialized) struct RESTEndToEndTests {
    @Test func commitWithTransformsThenGetAndQuery() async throws {
        try await withHearth { c in
            let commit = try await c.call("POST", c.documents + ":commit", """
                {"writes":[{"update":{"name":"\(c.name("rooms/r1"))","fields":{"title":{"stringValue":"Lobby"},"n":{"integerValue":"1"}}},
                 "updateTransforms":[{"fieldPath":"updatedAt","setToServerValue":"REQUEST_TIME"},{"fieldPath":"visits","increment":{"integerValue":"1"}}]}]}
                """)
            #expect(commit.status == 200)
            let commitTime = commit.json["commitTime"]?.stringValue
            #expect(commitTime != nil)
            let results = commit.json[path: "writeResults"]?.arrayValue ?? []
            #expect(results.count == 1)
            #expect(results.first?["transformResults"]?.arrayValue.count == 2)
            #expect(results.first?["transformResults"]?.arrayValue.first?["timestampValue"]?.stringValue == commitTime)

            let get = try await c.call("GET", c.documents + "/rooms/r1?mask.fieldPaths=title")
            #expect(get.status == 200)
            #expect(get.json[path: "fields", "title", "stringValue"]?.stringValue == "Lobby")
            #expect(get.json[path: "fields", "n"] == nil)
            #expect(get.json["updateTime"]?.stringValue == commitTime)

            let query = try await c.call("POST", c.documents + ":runQuery", """
                {"structuredQuery":{"from":[{"collectionId":"rooms"}],"where":{"fieldFilter":{"field":{"fieldPath":"visits"},"op":"GREATER_THAN_OR_EQUAL","value":{"doubleValue":1.0}}}}}
                """)
            #expect(query.status == 200)
            #expect(query.json.arrayValue.count == 1)
            #expect(query.json.arrayValue.first?[path: "document", "name"]?.stringValue == c.name("rooms/r1"))

            let none = try await c.call("POST", c.documents + ":runQuery", """
                {"structuredQuery":{"from":[{"collectionId":"rooms"}],"where":{"fieldFilter":{"field":{"fieldPath":"visits"},"op":"GREATER_THAN","value":{"stringValue":"a"}}}}}
                """)
            #expect(none.json.arrayValue.count == 1)
            #expect(none.json.arrayValue.first?["document"] == nil)
            #expect(none.json.arrayValue.first?["readTime"] != nil)
        }
    }

    @Test func createPatchListDelete() async throws {
        try await withHearth { c in
            let created = try await c.call("POST", c.documents + "/things?documentId=t1", #"{"fields":{"a":{"integerValue":"1"},"b":{"booleanValue":true}}}"#)
            #expect(created.status == 200)
            #expect(created.json["name"]?.stringValue == c.name("things/t1"))
            let again = try await c.call("POST", c.documents + "/things?documentId=t1", #"{"fields":{}}"#)
            #expect(again.status == 409)
            #expect(again.json[path: "error", "status"]?.stringValue == "ALREADY_EXISTS")

            // updateMask present: listed paths absent from the body are deleted, others untouched.
            let patched = try await c.call(
                "PATCH", c.documents + "/things/t1?updateMask.fieldPaths=a&updateMask.fieldPaths=c",
                #"{"fields":{"c":{"stringValue":"x"},"b":{"booleanValue":false}}}"#)
            #expect(patched.status == 200)
            #expect(patched.json[path: "fields", "a"] == nil)
            #expect(patched.json[path: "fields", "b", "booleanValue"] == .bool(true))
            #expect(patched.json[path: "fields", "c", "stringValue"]?.stringValue == "x")

            let missing = try await c.call("PATCH", c.documents + "/things/t9?currentDocument.exists=true", #"{"fields":{}}"#)
            #expect(missing.status == 404)

            for i in 2...5 {
                _ = try await c.call("POST", c.documents + "/things?documentId=t\(i)", #"{"fields":{}}"#)
            }
            let page1 = try await c.call("GET", c.documents + "/things?pageSize=2")
            #expect(page1.json["documents"]?.arrayValue.count == 2)
            let token = try #require(page1.json["nextPageToken"]?.stringValue)
            let page2 = try await c.call("GET", c.documents + "/things?pageSize=2&pageToken=\(token)")
            #expect(page2.json["documents"]?.arrayValue.first?["name"]?.stringValue == c.name("things/t3"))

            #expect(try await c.call("DELETE", c.documents + "/things/t1").status == 200)
            #expect(try await c.call("DELETE", c.documents + "/things/never").status == 200)
            #expect(try await c.call("GET", c.documents + "/things/t1").status == 404)
        }
    }

    @Test func transactionConflictIsAbortedAndRetrySucceeds() async throws {
        try await withHearth { c in
            _ = try await c.call("POST", c.documents + "/acct?documentId=a", #"{"fields":{"v":{"integerValue":"1"}}}"#)
            let b1 = try await c.call("POST", c.documents + ":beginTransaction", "{}")
            let t1 = try #require(b1.json["transaction"]?.stringValue)
            _ = try await c.call("GET", c.documents + "/acct/a?transaction=\(t1.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            // A write lands between the transaction's read and its commit.
            _ = try await c.call("PATCH", c.documents + "/acct/a", #"{"fields":{"v":{"integerValue":"2"}}}"#)
            let commit = try await c.call("POST", c.documents + ":commit", """
                {"transaction":"\(t1)","writes":[{"update":{"name":"\(c.name("acct/a"))","fields":{"v":{"integerValue":"3"}}}}]}
                """)
            #expect(commit.status == 409)
            #expect(commit.json[path: "error", "status"]?.stringValue == "ABORTED")
            let b2 = try await c.call("POST", c.documents + ":beginTransaction", #"{"options":{"readWrite":{"retryTransaction":"\#(t1)"}}}"#)
            let t2 = try #require(b2.json["transaction"]?.stringValue)
            let ok = try await c.call("POST", c.documents + ":commit", """
                {"transaction":"\(t2)","writes":[{"update":{"name":"\(c.name("acct/a"))","fields":{"v":{"integerValue":"3"}}}}]}
                """)
            #expect(ok.status == 200)
        }
    }

    @Test func aggregationsBatchGetAndCollectionIDs() async throws {
        try await withHearth { c in
            for (i, v) in [2, 3, 5].enumerated() {
                _ = try await c.call("POST", c.documents + "/n?documentId=d\(i)", #"{"fields":{"v":{"integerValue":"\#(v)"}}}"#)
            }
            let agg = try await c.call("POST", c.documents + ":runAggregationQuery", """
                {"structuredAggregationQuery":{"structuredQuery":{"from":[{"collectionId":"n"}]},
                 "aggregations":[{"alias":"total","count":{}},{"sum":{"field":{"fieldPath":"v"}}},{"avg":{"field":{"fieldPath":"v"}}}]}}
                """)
            #expect(agg.status == 200)
            let fields = agg.json.arrayValue.first?[path: "result", "aggregateFields"]
            #expect(fields?["total"]?["integerValue"]?.stringValue == "3")
            #expect(fields?["field_1"]?["integerValue"]?.stringValue == "10")
            #expect(fields?["field_2"]?["doubleValue"] != nil)

            let bg = try await c.call("POST", c.documents + ":batchGet", #"{"documents":["\#(c.name("n/d0"))","\#(c.name("n/zz"))"]}"#)
            #expect(bg.json.arrayValue.count == 2)
            #expect(bg.json.arrayValue.contains { $0["missing"]?.stringValue == c.name("n/zz") })

            let ids = try await c.call("POST", c.documents + ":listCollectionIds", "{}")
            #expect(ids.json["collectionIds"] == .array([.string("n")]))
            let denied = try await c.call("POST", c.documents + ":listCollectionIds", "{}", token: nil)
            #expect(denied.status == 403)
        }
    }

    @Test func clientMistakesGetFirestoreErrors() async throws {
        try await withHearth { c in
            let cases: [(String, String, String?, Int)] = [
                ("POST", c.documents + ":commit", "{not json", 400),
                ("POST", c.documents + ":commit", #"{"writes":[{"update":{"name":"x","fields":{}}}]}"#, 400),
                ("POST", c.documents + ":commit", #"{"writes":[{"update":{"name":"\#(c.name("a/b"))","fields":{"__bad__":{"nullValue":null}}}}]}"#, 400),
                ("POST", c.documents + ":commit", #"{"writes":[{"update":{"name":"\#(c.name("a/b"))","fields":{"x":{"integerValue":"99999999999999999999"}}}}]}"#, 400),
                ("POST", c.documents + ":runQuery", #"{"structuredQuery":{"from":[{"collectionId":"a"}],"limit":-1}}"#, 400),
                ("GET", "/v1/projects/p/databases/(default)/documentz/a", nil, 404),
                ("GET", c.documents + "/a/__reserved__", nil, 400),
                ("PATCH", c.documents + "/a", #"{"fields":{}}"#, 400),
                ("POST", c.documents + ":frobnicate", "{}", 404),
            ]
            for (method, path, body, status) in cases {
                let r = try await c.call(method, path, body)
                #expect(r.status == status, "\(method) \(path) \(body ?? "")")
                #expect(r.json[path: "error", "status"]?.stringValue != nil, "\(r.text)")
            }
            let badToken = try await c.call("GET", c.documents + "/a/b", token: "not-a-jwt")
            #expect(badToken.status == 400)
            #expect(badToken.text.contains("invalid jwt"))
            // An OAuth access token is a signed-out caller, as the emulator answers.
            #expect(try await c.call("GET", c.documents + "/a/b", token: "ya29.access-token").status == 404)
        }
    }

    @Test func clearEndpointDeletesOneProject() async throws {
        try await withHearth { c in
            _ = try await c.call("POST", c.documents + "/a?documentId=b", #"{"fields":{}}"#)
            let other = RESTClient(base: c.base, project: "demo-other")
            _ = try await other.call("POST", other.documents + "/a?documentId=b", #"{"fields":{}}"#)
            let cleared = try await c.call("DELETE", "/emulator/v1/projects/\(c.project)/databases/(default)/documents", token: nil)
            #expect(cleared.status == 200)
            #expect(try await c.call("GET", c.documents + "/a/b").status == 404)
            #expect(try await other.call("GET", other.documents + "/a/b").status == 200)
        }
    }

    /// `-0.0` keeps its sign through REST JSON in and out, the SQLite store and a restart, as
    /// production keeps it (googleapis/nodejs-firestore#1638; the emulator answers 0.0), and
    /// still equals 0 in filters and order (Tests/Conformance/query_cases.json, d15).
    @Test func negativeZeroKeepsItsSignAndEqualsZero() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-negzero-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        }
        let zeroFilter = #"{"fieldFilter":{"field":{"fieldPath":"z"},"op":"EQUAL","value":{"integerValue":"0"}}}"#
        try await withHearth(data: file) { c in
            for (id, value) in [("neg", #"{"doubleValue":-0.0}"#), ("str", #"{"doubleValue":"-0"}"#), ("pos", #"{"doubleValue":0.0}"#), ("one", #"{"integerValue":"1"}"#)] {
                let r = try await c.call("PATCH", c.documents + "/zeros/\(id)", #"{"fields":{"z":\#(value),"g":{"geoPointValue":{"latitude":-0.0}}}}"#)
                #expect(r.status == 200)
            }
            let get = try await c.call("GET", c.documents + "/zeros/neg")
            #expect(get.text.contains(#""z":{"doubleValue":-0.0}"#))
            #expect(get.text.contains(#""geoPointValue":{"latitude":-0.0}"#))
            let q = try await c.call("POST", c.documents + ":runQuery", #"{"structuredQuery":{"from":[{"collectionId":"zeros"}],"where":\#(zeroFilter)}}"#)
            #expect(q.json.arrayValue.compactMap { $0[path: "document", "name"]?.stringValue } == ["neg", "pos", "str"].map { c.name("zeros/\($0)") })
            #expect(q.text.contains(#""z":{"doubleValue":-0.0}"#))
        }
        try await withHearth(data: file) { c in
            let get = try await c.call("GET", c.documents + "/zeros/str")
            #expect(get.text.contains(#""z":{"doubleValue":-0.0}"#))
            // Ascending z: the three zeros tie (name order), then 1; descending reverses both.
            let asc = try await c.call("POST", c.documents + ":runQuery", #"{"structuredQuery":{"from":[{"collectionId":"zeros"}],"orderBy":[{"field":{"fieldPath":"z"}}]}}"#)
            #expect(asc.json.arrayValue.compactMap { $0[path: "document", "name"]?.stringValue } == ["neg", "pos", "str", "one"].map { c.name("zeros/\($0)") })
            let above = try await c.call("POST", c.documents + ":runQuery", #"{"structuredQuery":{"from":[{"collectionId":"zeros"}],"where":{"fieldFilter":{"field":{"fieldPath":"z"},"op":"GREATER_THAN","value":{"doubleValue":-0.0}}}}}"#)
            #expect(above.json.arrayValue.compactMap { $0[path: "document", "name"]?.stringValue } == [c.name("zeros/one")])
        }
    }

    @Test func dataSurvivesRestart() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-restart-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        }
        var updateTime: String?
        try await withHearth(data: file) { c in
            let r = try await c.call("POST", c.documents + "/keep?documentId=me", #"{"fields":{"t":{"timestampValue":"2024-01-02T03:04:05.123456789Z"},"d":{"doubleValue":"-0"}}}"#)
            updateTime = r.json["updateTime"]?.stringValue
        }
        try await withHearth(data: file) { c in
            let r = try await c.call("GET", c.documents + "/keep/me")
            #expect(r.status == 200)
            #expect(r.json["updateTime"]?.stringValue == updateTime)
            // Stored with microsecond precision, as the emulator stores timestamps.
            #expect(r.json[path: "fields", "t", "timestampValue"]?.stringValue == "2024-01-02T03:04:05.123456Z")
            // Commit times never go backwards across a restart.
            let w = try await c.call("POST", c.documents + ":commit", #"{"writes":[]}"#)
            #expect((w.json["commitTime"]?.stringValue ?? "") > (updateTime ?? "~"))
        }
    }
}

