import FirestoreModel
import FirestoreRPC
import GoogleWire
import HTTPServer
import Testing

@testable import FirestoreAPI
@testable import ProtoWire

/// Query explain in REST's proto3 JSON: `explainOptions` decoded from RunQuery /
/// RunAggregationQuery bodies as gRPC decodes `explain_options`, and `explainMetrics` written
/// into their response elements (docs/reference/firestore-wire.md §1.12).
@Suite("Query explain (REST JSON)")
struct RESTExplainTests {
    static let root = "projects/p/databases/(default)/documents"
    static let query = #""structuredQuery":{"from":[{"collectionId":"c"}]}"#
    static let aggregationQuery =
        #""structuredAggregationQuery":{"structuredQuery":{"from":[{"collectionId":"c"}]},"aggregations":[{"alias":"n","count":{}}]}"#

    /// Decodes a REST call the way `FirestoreRESTService` does.
    static func decode(_ verb: String, _ body: String) throws -> FirestoreRequest {
        let request = HTTPRequest(method: "POST", target: "/v1/\(root):\(verb)", body: Array(body.utf8))
        let route = try #require(try RESTRoute.parse(request.path, method: "POST"))
        let rpc = try FirestoreRESTService.method(route, request)
        return try RESTRequestDecoder(route: route, query: QueryParameters(request.queryItems), body: request.body).decode(rpc)
    }

    static func runQueryOptions(_ member: String) throws -> ExplainOptions? {
        guard case .runQuery(let r) = try decode("runQuery", "{\(query)\(member)}") else { return nil }
        return r.explainOptions
    }

    // MARK: decoding

    @Test(
        arguments: [
            ("", nil),
            (#","explainOptions":null"#, nil),
            (#","explainOptions":{}"#, ExplainOptions(analyze: false)),
            (#","explainOptions":{"analyze":false}"#, ExplainOptions(analyze: false)),
            (#","explainOptions":{"analyze":true}"#, ExplainOptions(analyze: true)),
            (#","explain_options":{"analyze":true}"#, ExplainOptions(analyze: true)),
            (#","explainOptions":{"analyze":null}"#, ExplainOptions(analyze: false)),
        ] as [(String, ExplainOptions?)])
    func runQueryExplainOptions(member: String, expected: ExplainOptions?) throws {
        #expect(try Self.runQueryOptions(member) == expected)
    }

    @Test func runAggregationQueryExplainOptions() throws {
        let analyzed = try Self.decode("runAggregationQuery", "{\(Self.aggregationQuery),\"explainOptions\":{\"analyze\":true}}")
        guard case .runAggregationQuery(let r) = analyzed else {
            Issue.record("not a RunAggregationQuery: \(analyzed)")
            return
        }
        #expect(r.explainOptions == ExplainOptions(analyze: true))
        guard case .runAggregationQuery(let plain) = try Self.decode("runAggregationQuery", "{\(Self.aggregationQuery)}") else {
            Issue.record("not a RunAggregationQuery")
            return
        }
        #expect(plain.explainOptions == nil)
    }

    @Test(arguments: [
        (#","explainOptions":{"analyze":"yes"}"#, "Invalid value at 'explainOptions.analyze': expected true or false, got string."),
        (#","explainOptions":{"analyze":1}"#, "Invalid value at 'explainOptions.analyze': expected true or false, got number."),
        (
            #","explainOptions":{"bogus":1}"#,
            "Invalid JSON payload received. Unknown name \"bogus\" at 'explainOptions': Cannot find field."
        ),
        (#","explainOptions":true"#, "Invalid value at 'explainOptions': expected a JSON object, got boolean."),
    ])
    func malformedExplainOptionsAreInvalidArguments(member: String, message: String) {
        #expect(throws: FirestoreError.invalidArgument(message)) { try Self.runQueryOptions(member) }
    }

    @Test func restAndGRPCDecodeAlike() throws {
        let rest = try Self.decode("runQuery", "{\(Self.query),\"explainOptions\":{\"analyze\":true}}")
        var w = ProtoWriter()
        w.writeStringField(1, Self.root)
        w.writeMessageField(2) { q in q.writeMessageField(2) { $0.writeStringField(2, "c") } }
        w.writeMessageField(10) { $0.writeBoolField(1, true) }
        #expect(try FirestoreProto.request(.runQuery, from: w.bytes) == rest)
    }

    // MARK: encoding

    static let indexA = IndexUsage(queryScope: "Collection", properties: "(a ASC, __name__ ASC)")
    static let analyzed = ExplainMetrics(
        indexesUsed: [indexA],
        executionStats: ExecutionStats(
            resultsReturned: 20, executionDuration: .milliseconds(12), readOperations: 20,
            debugStats: DebugStats(
                indexEntriesScanned: 20, documentsScanned: 20,
                billingDetails: BillingDetails(documentsBillable: 20, indexEntriesBillable: 0, minQueryCost: 0))))
    static let analyzedJSON =
        #"{"planSummary":{"indexesUsed":[{"properties":"(a ASC, __name__ ASC)","query_scope":"Collection"}]},"#
        + #""executionStats":{"resultsReturned":"20","executionDuration":"0.012s","readOperations":"20","#
        + #""debugStats":{"billing_details":{"documents_billable":"20","index_entries_billable":"0","min_query_cost":"0","small_ops":"0"},"#
        + #""documents_scanned":"20","index_entries_scanned":"20"}}}"#
    static let planJSON = #"{"planSummary":{"indexesUsed":[{"properties":"(a ASC, __name__ ASC)","query_scope":"Collection"}]}}"#
    static let readTime = Timestamp(seconds: 3, nanos: 123_000_000)

    @Test func explainMetricsJSON() {
        #expect(RESTCodec.encodeExplainMetrics(Self.analyzed).serializedString == Self.analyzedJSON)
        #expect(RESTCodec.encodeExplainMetrics(ExplainMetrics(indexesUsed: [Self.indexA])).serializedString == Self.planJSON)
        // No index named: the plan summary is still there, without the empty repeated field.
        #expect(RESTCodec.encodeExplainMetrics(ExplainMetrics(indexesUsed: [])).serializedString == #"{"planSummary":{}}"#)
    }

    @Test func zeroCountsAreOmittedButDurationAndDebugStatsKept() {
        let stats = ExecutionStats(
            resultsReturned: 0, executionDuration: .zero, readOperations: 0,
            debugStats: DebugStats(
                indexEntriesScanned: 0, documentsScanned: 0,
                billingDetails: BillingDetails(documentsBillable: 0, indexEntriesBillable: 0, minQueryCost: 1)))
        let json = RESTCodec.encodeExplainMetrics(ExplainMetrics(indexesUsed: [], executionStats: stats)).serializedString
        #expect(
            json
                == #"{"planSummary":{},"executionStats":{"executionDuration":"0s","debugStats":{"billing_details":{"documents_billable":"0","#
                + #""index_entries_billable":"0","min_query_cost":"1","small_ops":"0"},"documents_scanned":"0","index_entries_scanned":"0"}}}"#
        )
    }

    @Test func runQueryElementsCarryTheMetricsLast() {
        let doc = Document(
            path: ResourcePath(["c", "d"]), fields: ["a": .integer(1)], createTime: Self.readTime, updateTime: Self.readTime)
        let last = RunQueryResponse(document: doc, readTime: Self.readTime, done: true, explainMetrics: Self.analyzed)
        let json = RESTCodec.encodeRunQueryResponse(last, database: testDB).serializedString
        #expect(
            json.hasSuffix(#""readTime":"1970-01-01T00:00:03.123Z","done":true,"explainMetrics":"# + Self.analyzedJSON + "}"), "\(json)")
        // Plan only: no document, the metrics beside the read time (or alone).
        let plan = RunQueryResponse(document: nil, readTime: Self.readTime, explainMetrics: ExplainMetrics(indexesUsed: [Self.indexA]))
        #expect(
            RESTCodec.encodeRunQueryResponse(plan, database: testDB).serializedString
                == #"{"readTime":"1970-01-01T00:00:03.123Z","explainMetrics":"# + Self.planJSON + "}")
        let alone = RunQueryResponse(document: nil, readTime: nil, explainMetrics: ExplainMetrics(indexesUsed: [Self.indexA]))
        #expect(RESTCodec.encodeRunQueryResponse(alone, database: testDB).serializedString == #"{"explainMetrics":"# + Self.planJSON + "}")
        // The whole answer is the JSON array of the elements, the metrics in the last one.
        let array = RESTCodec.encodeResponse(
            .runQuery([RunQueryResponse(document: doc, readTime: Self.readTime), last]), database: testDB)
        guard case .array(let elements) = array else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == 2)
        #expect(elements[0]["explainMetrics"] == nil)
        #expect(elements[1]["explainMetrics"] == RESTCodec.encodeExplainMetrics(Self.analyzed))
    }

    @Test func runAggregationQueryElements() {
        let analyzed = RunAggregationQueryResponse(
            aggregateFields: ["n": .integer(3)], readTime: Self.readTime, explainMetrics: Self.analyzed)
        #expect(
            RESTCodec.encodeRunAggregationQueryResult(analyzed).serializedString
                == #"{"result":{"aggregateFields":{"n":{"integerValue":"3"}}},"readTime":"1970-01-01T00:00:03.123Z","done":true,"#
                + #""explainMetrics":"# + Self.analyzedJSON + "}")
        // Plan only: no result member.
        let plan = RunAggregationQueryResponse(
            aggregateFields: [:], readTime: Self.readTime, explainMetrics: ExplainMetrics(indexesUsed: [Self.indexA]))
        #expect(
            RESTCodec.encodeRunAggregationQueryResult(plan).serializedString
                == #"{"readTime":"1970-01-01T00:00:03.123Z","done":true,"explainMetrics":"# + Self.planJSON + "}")
        // Not explained: unchanged, the result always written.
        #expect(
            RESTCodec.encodeRunAggregationQueryResult(RunAggregationQueryResponse(aggregateFields: [:], readTime: nil)).serializedString
                == #"{"result":{"aggregateFields":{}},"done":true}"#)
    }

    @Test(arguments: [
        (Duration.zero, "0s"),
        (.seconds(2), "2s"),
        (.milliseconds(12), "0.012s"),
        (.microseconds(100_718), "0.100718s"),
        (.nanoseconds(1_500_000_001), "1.500000001s"),
        (.milliseconds(1_500), "1.500s"),
        (.milliseconds(-1_500), "-1.500s"),
        (.nanoseconds(-1), "-0.000000001s"),
        (.nanoseconds(7) + Duration(secondsComponent: 0, attosecondsComponent: 999_999_999), "0.000000007s"),
    ])
    func durationsInProto3JSON(duration: Duration, text: String) {
        #expect(RESTCodec.encodeDuration(duration) == .string(text))
    }
}
