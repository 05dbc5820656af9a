import FirestoreModel
import FirestoreRPC
import Testing

@testable import ProtoWire

/// Query explain on the protobuf wire: `explain_options` decoded from the Python client's
/// requests, `explain_metrics` encoded byte for byte as the Python client's protobuf classes
/// serialize it (scripts/record_explain_fixtures.py, which also parses those bytes back through
/// the client's `ExplainMetrics._from_pb`).
@Suite("Query explain (protobuf)")
struct ExplainCodecTests {
    static func same(_ bytes: [UInt8], _ hex: String) -> Bool { Hex.string(bytes) == Hex.string(Hex.bytes(hex)) }

    static let indexA = IndexUsage(queryScope: "Collection", properties: "(age ASC, __name__ ASC)")
    static let indexB = IndexUsage(queryScope: "Collection group", properties: "(bucket ASC, i DESC, __name__ DESC)")
    /// The analyze example of production's docs: 95,000 index entries and 5 documents scanned.
    static let analyzed = ExplainMetrics(
        indexesUsed: [indexA],
        executionStats: ExecutionStats(
            resultsReturned: 5, executionDuration: .microseconds(100_718), readOperations: 5,
            debugStats: DebugStats(
                indexEntriesScanned: 95_000, documentsScanned: 5,
                billingDetails: BillingDetails(documentsBillable: 5, indexEntriesBillable: 0, smallOps: 0, minQueryCost: 0))))
    static let planOnly = ExplainMetrics(indexesUsed: [indexA, indexB])

    // MARK: requests

    @Test func pythonRunQueryWithExplainOptions() throws {
        let analyze = try RunQueryRequest(serializedBytes: Hex.bytes(PythonExplainFixtures.runQueryExplainAnalyze))
        #expect(analyze.explainOptions == ExplainOptions(analyze: true))
        #expect(analyze.target.query.collectionID == "users")
        // analyze=False: the client still sends explain_options, as an empty message (52 00).
        let plan = try RunQueryRequest(serializedBytes: Hex.bytes(PythonExplainFixtures.runQueryExplainPlan))
        #expect(plan.explainOptions == ExplainOptions(analyze: false))
        let plain = try RunQueryRequest(serializedBytes: Hex.bytes(PythonFixtures.runQueryCollectionGroup))
        #expect(plain.explainOptions == nil)
    }

    @Test func pythonRunAggregationQueryWithExplainOptions() throws {
        let request = try RunAggregationQueryRequest(
            serializedBytes: Hex.bytes(PythonExplainFixtures.runAggregationQueryExplainAnalyze))
        #expect(request.explainOptions == ExplainOptions(analyze: true))
        #expect(request.aggregations == [Aggregation(alias: "n", kind: .count(upTo: nil))])
        let plain = try RunAggregationQueryRequest(serializedBytes: Hex.bytes(PythonFixtures.runAggregation))
        #expect(plain.explainOptions == nil)
    }

    @Test func explainOptionsFieldsAreReadAndUnknownOnesSkipped() throws {
        let base = QueryDecodingTests.runQuery { QueryDecodingTests.from("c", &$0) }
        // analyze=1 after an unknown field 2; a second explain_options merges (last analyze wins).
        let options =
            base
            + Fx.message { w in
                w.writeMessageField(10) { o in
                    o.writeStringField(2, "future")
                    o.writeBoolField(1, true)
                }
            }
        #expect(try RunQueryRequest(serializedBytes: options).explainOptions == ExplainOptions(analyze: true))
        let twice = options + Fx.message { w in w.writeMessageField(10) { $0.writeBoolField(1, false) } }
        #expect(try RunQueryRequest(serializedBytes: twice).explainOptions == ExplainOptions(analyze: false))
    }

    @Test func malformedExplainOptionsNameTheField() {
        let base = QueryDecodingTests.runQuery { QueryDecodingTests.from("c", &$0) }
        // explain_options holding a truncated varint for analyze.
        let bad = base + Hex.bytes("52 02 08 ff")
        do {
            _ = try RunQueryRequest(serializedBytes: bad)
            Issue.record("expected INVALID_ARGUMENT")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("explain_options"), "\(error.message)")
        }
    }

    // MARK: responses

    @Test func runQueryResponseWithMetricsMatchesPython() {
        let last = RunQueryResponse(document: Fx.alice, readTime: Fx.ts, done: true, explainMetrics: Self.analyzed)
        #expect(Self.same(last.serializedBytes(database: Fx.db), PythonExplainFixtures.runQueryResponseExplainAnalyze))
        let plan = RunQueryResponse(document: nil, readTime: Fx.ts, explainMetrics: Self.planOnly)
        #expect(Self.same(plan.serializedBytes(database: Fx.db), PythonExplainFixtures.runQueryResponseExplainPlan))
    }

    @Test func runAggregationQueryResponseWithMetricsMatchesPython() {
        let analyzed = RunAggregationQueryResponse(aggregateFields: ["n": .integer(3)], readTime: Fx.ts, explainMetrics: Self.analyzed)
        #expect(Self.same(analyzed.serializedBytes(), PythonExplainFixtures.runAggregationQueryResponseExplainAnalyze))
        // Plan only: no result at all, only read_time and the metrics.
        let plan = RunAggregationQueryResponse(aggregateFields: [:], readTime: Fx.ts, explainMetrics: Self.planOnly)
        #expect(Self.same(plan.serializedBytes(), PythonExplainFixtures.runAggregationQueryResponseExplainPlan))
        // Without metrics an empty result is still written (every non-explained answer has one).
        #expect(Self.same(RunAggregationQueryResponse(aggregateFields: [:], readTime: nil).serializedBytes(), "0a 00"))
    }

    @Test func responsesWithoutMetricsAreUnchanged() {
        let plain = RunQueryResponse(document: nil, readTime: Fx.ts, done: true)
        #expect(Self.same(plain.serializedBytes(database: Fx.db), "1a 0c " + ListenTests.tsBytes + " 30 01"))
    }

    @Test func planSummaryIsWrittenEvenWithoutIndexes() {
        // explain_metrics {plan_summary {}}: production always plans, so the summary is present.
        let m = RunQueryResponse(document: nil, readTime: nil, explainMetrics: ExplainMetrics(indexesUsed: []))
        #expect(Self.same(m.serializedBytes(database: Fx.db), "5a 02 0a 00"))
    }

    @Test func executionStatsOmitZeroCountsButKeepDurationAndDebugStats() {
        let stats = ExecutionStats(
            resultsReturned: 0, executionDuration: .zero, readOperations: 0,
            debugStats: DebugStats(
                indexEntriesScanned: 0, documentsScanned: 0,
                billingDetails: BillingDetails(documentsBillable: 0, indexEntriesBillable: 0, minQueryCost: 1)))
        var w = ProtoWriter()
        FirestoreProto.encodeExplainMetrics(ExplainMetrics(indexesUsed: [], executionStats: stats), into: &w)
        // plan_summary {}, execution_stats {3 execution_duration {}, 5 debug_stats {…}}: no field 1
        // or 4; Struct keys sorted. The bytes of Python's deterministic serialization of the same
        // message (a zero Duration that is set, every count "0" but min_query_cost "1").
        let python = """
            0a 00 12 b7 01 1a 00 2a b2 01
              0a 78 0a 0f "billing_details" 12 65 2a 63
                0a 19 0a 12 "documents_billable" 12 03 1a 01 "0"
                0a 1d 0a 16 "index_entries_billable" 12 03 1a 01 "0"
                0a 15 0a 0e "min_query_cost" 12 03 1a 01 "1"
                0a 10 0a 09 "small_ops" 12 03 1a 01 "0"
              0a 18 0a 11 "documents_scanned" 12 03 1a 01 "0"
              0a 1c 0a 15 "index_entries_scanned" 12 03 1a 01 "0"
            """
        #expect(Self.same(w.bytes, python), "\(Hex.string(w.bytes))")
    }

    @Test(arguments: [
        (Duration.zero, ""),
        (.seconds(2), "08 02"),
        (.milliseconds(12), "10 80 b6 dc 05"),
        (.nanoseconds(1_500_000_001), "08 01 10 81 ca b5 ee 01"),
        // Negative: seconds and nanos both negative (10-byte varints).
        (.milliseconds(-1_500), "08 ff ff ff ff ff ff ff ff ff 01 10 80 b6 ca 91 fe ff ff ff ff 01"),
        // Below a nanosecond: truncated toward zero.
        (.nanoseconds(7) + Duration(secondsComponent: 0, attosecondsComponent: 999_999_999), "10 07"),
    ])
    func durationsAreSecondsAndNanos(duration: Duration, hex: String) {
        var w = ProtoWriter()
        FirestoreProto.encodeDuration(duration, into: &w)
        #expect(Self.same(w.bytes, hex), "\(duration): \(Hex.string(w.bytes))")
    }
}
