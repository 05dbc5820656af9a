import FirestoreModel
import FirestoreRPC
import GoogleWire
import Testing

@testable import FirestoreAPI

let testDB = DatabaseID(project: "demo-p")
let docsRoot = "projects/demo-p/databases/(default)/documents"

func decodeWrite(_ text: String) throws -> Write {
    try RESTCodec.decodeWrite(try JSONValue.parse(text), database: testDB, at: "writes[0]")
}

func decodeQuery(_ text: String) throws -> StructuredQuery {
    try RESTCodec.decodeStructuredQuery(try JSONValue.parse(text))
}

@Suite struct JSONWriteCodecTests {
    @Test func decodesTheWorkedCommitExample() throws {
        let w = try decodeWrite(
            """
            {"update":{"name":"\(docsRoot)/rooms/r1","fields":{"title":{"stringValue":"Lobby"},"n":{"integerValue":"1"}}},
             "updateMask":{"fieldPaths":["title"]},
             "updateTransforms":[{"fieldPath":"updatedAt","setToServerValue":"REQUEST_TIME"},
                                 {"fieldPath":"visits","increment":{"integerValue":"1"}}],
             "currentDocument":{"exists":true}}
            """)
        #expect(w.operation == .update(path: ResourcePath(["rooms", "r1"]), fields: ["title": .string("Lobby"), "n": .integer(1)]))
        #expect(w.updateMask == [FieldPath(["title"])])
        #expect(
            w.updateTransforms == [
                FieldTransform(fieldPath: FieldPath(["updatedAt"]), operation: .serverTimestamp),
                FieldTransform(fieldPath: FieldPath(["visits"]), operation: .increment(.integer(1))),
            ])
        #expect(w.currentDocument == .exists(true))
    }

    @Test func absentEmptyAndSnakeCaseMasks() throws {
        let name = "\(docsRoot)/c/d"
        #expect(try decodeWrite(#"{"update":{"name":"\#(name)"}}"#).updateMask == nil)
        #expect(try decodeWrite(#"{"update":{"name":"\#(name)"},"updateMask":{}}"#).updateMask == [])
        #expect(try decodeWrite(#"{"update":{"name":"\#(name)"},"update_mask":{"field_paths":[]}}"#).updateMask == [])
        #expect(try decodeWrite(#"{"update":{"name":"\#(name)"},"updateMask":null}"#).updateMask == nil)
        let w = try decodeWrite(#"{"update":{"name":"\#(name)"},"updateMask":{"fieldPaths":["a.`b c`","`x\\`y`"]}}"#)
        #expect(w.updateMask == [FieldPath(["a", "b c"]), FieldPath(["x`y"])])
    }

    @Test func otherOperations() throws {
        let name = "\(docsRoot)/c/d"
        #expect(try decodeWrite(#"{"delete":"\#(name)","currentDocument":{"updateTime":"2024-01-01T00:00:00.5Z"}}"#)
            == Write(operation: .delete(ResourcePath(["c", "d"])), currentDocument: .updateTime(Timestamp(seconds: 1_704_067_200, nanos: 500_000_000))))
        #expect(try decodeWrite(#"{"verify":"\#(name)","current_document":{"exists":false}}"#)
            == Write(operation: .verify(ResourcePath(["c", "d"])), currentDocument: .exists(false)))
        let t = try decodeWrite(#"{"transform":{"document":"\#(name)","fieldTransforms":[{"fieldPath":"a","maximum":{"doubleValue":1}}]}}"#)
        #expect(t.operation == .transform(ResourcePath(["c", "d"])))
        #expect(t.updateTransforms == [FieldTransform(fieldPath: FieldPath(["a"]), operation: .maximum(.double(1)))])
        #expect(try decodeWrite(#"{"delete":"\#(name)","currentDocument":{}}"#).currentDocument == Precondition.none)
    }

    @Test func everyTransformKind() throws {
        let json = try JSONValue.parse(
            """
            [{"fieldPath":"a","setToServerValue":1},{"fieldPath":"b","minimum":{"integerValue":"3"}},
             {"fieldPath":"c","appendMissingElements":{"values":[{"integerValue":"3"},{"doubleValue":3}]}},
             {"fieldPath":"d","removeAllFromArray":{}},{"field_path":"e","set_to_server_value":"REQUEST_TIME"}]
            """)
        #expect(
            try RESTCodec.decodeFieldTransforms(json, at: "t") == [
                FieldTransform(fieldPath: FieldPath(["a"]), operation: .serverTimestamp),
                FieldTransform(fieldPath: FieldPath(["b"]), operation: .minimum(.integer(3))),
                FieldTransform(fieldPath: FieldPath(["c"]), operation: .appendMissingElements([.integer(3), .double(3)])),
                FieldTransform(fieldPath: FieldPath(["d"]), operation: .removeAllFromArray([])),
                FieldTransform(fieldPath: FieldPath(["e"]), operation: .serverTimestamp),
            ])
    }

    @Test(arguments: [
        (#"{}"#, "Invalid value at 'writes[0]': a write must set one of update, delete, transform or verify."),
        (#"{"delete":"\#(docsRoot)/c/d","verify":"\#(docsRoot)/c/d"}"#, "Invalid value at 'writes[0]': a write must set exactly one operation; got delete and verify."),
        (#"{"delete":"\#(docsRoot)/c/d","updateMask":{}}"#, "Invalid value at 'writes[0].updateMask': updateMask is only allowed with update."),
        (#"{"delete":"\#(docsRoot)/c/d","updateTransforms":[]}"#, "Invalid value at 'writes[0].updateTransforms': updateTransforms is only allowed with update."),
        (#"{"update":{"fields":{}}}"#, "Invalid value at 'writes[0].update.name': a document name is required."),
        (#"{"delete":"\#(docsRoot)/c"}"#, "Invalid value at 'writes[0].delete': Document name \"\(docsRoot)/c\" has odd number of segments."),
        (#"{"delete":"projects/other/databases/(default)/documents/c/d"}"#, "Invalid value at 'writes[0].delete': Name \"projects/other/databases/(default)/documents/c/d\" is not in database \"projects/demo-p/databases/(default)\"."),
        (#"{"delete":"\#(docsRoot)/c/d","currentDocument":{"exists":true,"updateTime":"2024-01-01T00:00:00Z"}}"#, "Invalid value at 'writes[0].currentDocument': a precondition may set exists or updateTime, not both."),
        (#"{"update":{"name":"\#(docsRoot)/c/d"},"updateMask":{"fieldPaths":["a..b"]}}"#, "Invalid value at 'writes[0].updateMask.fieldPaths[0]': Invalid field path: a..b"),
        (#"{"update":{"name":"\#(docsRoot)/c/d"},"updateTransforms":[{"fieldPath":"a"}]}"#, "Invalid value at 'writes[0].updateTransforms[0]': a field transform must set one transformation."),
        (#"{"update":{"name":"\#(docsRoot)/c/d"},"updateTransforms":[{"fieldPath":"a","increment":{"integerValue":"1"},"maximum":{"integerValue":"1"}}]}"#, "Invalid value at 'writes[0].updateTransforms[0]': a field transform must set exactly one transformation; got increment and maximum."),
        (#"{"update":{"name":"\#(docsRoot)/c/d"},"updateTransforms":[{"setToServerValue":"REQUEST_TIME"}]}"#, "Invalid value at 'writes[0].updateTransforms[0].fieldPath': a field transform needs a fieldPath."),
        (#"{"update":{"name":"\#(docsRoot)/c/d"},"updateTransforms":[{"fieldPath":"a","setToServerValue":"SERVER_VALUE_UNSPECIFIED"}]}"#, "Invalid value at 'writes[0].updateTransforms[0].setToServerValue': expected one of REQUEST_TIME; got \"SERVER_VALUE_UNSPECIFIED\"."),
        (#"{"update":{"name":"\#(docsRoot)/c/d","fields":{"a":{"integerValue":true}}}}"#, "Invalid value at 'writes[0].update.fields[\"a\"].integerValue': expected a 64-bit integer, got boolean."),
        (#"{"update":{"name":"\#(docsRoot)/c/d","createTime":"yesterday"}}"#, "Invalid value at 'writes[0].update.createTime': \"yesterday\" is not an RFC 3339 timestamp between 0001-01-01 and 9999-12-31."),
        (#"{"update":{"name":"\#(docsRoot)/c/d"},"extra":1}"#, "Invalid JSON payload received. Unknown name \"extra\" at 'writes[0]': Cannot find field."),
    ] as [(String, String)])
    func rejects(_ text: String, _ message: String) {
        #expect(throws: FirestoreError.invalidArgument(message)) { try decodeWrite(text) }
    }

    @Test func documentBodies() throws {
        let body = try RESTCodec.decodeDocument(try JSONValue.parse(#"{"fields":{"a":{"nullValue":null}}}"#), database: testDB)
        #expect(body == RESTCodec.DocumentBody(path: nil, fields: ["a": .null]))
        let named = try RESTCodec.decodeDocument(
            try JSONValue.parse(#"{"name":"\#(docsRoot)/c/d/e/f","createTime":"2024-01-01T00:00:00Z"}"#), database: testDB)
        #expect(named == RESTCodec.DocumentBody(path: ResourcePath(["c", "d", "e", "f"]), fields: [:]))
        #expect(try RESTCodec.decodeDocument(try JSONValue.parse(#"{"name":""}"#), database: testDB).path == nil)
    }

    @Test func transactionOptions() throws {
        func decode(_ t: String) throws -> TransactionMode {
            try RESTCodec.decodeTransactionOptions(try JSONValue.parse(t))
        }
        #expect(try decode("{}") == .readWrite(retryTransaction: nil))
        #expect(try decode(#"{"readWrite":{"retryTransaction":"AQI="}}"#) == .readWrite(retryTransaction: [1, 2]))
        #expect(try decode(#"{"read_only":{}}"#) == .readOnly(readTime: nil))
        #expect(try decode(#"{"readOnly":{"readTime":"1970-01-01T00:00:01Z"}}"#) == .readOnly(readTime: Timestamp(seconds: 1, nanos: 0)))
        #expect(throws: FirestoreError.self) { try decode(#"{"readOnly":{},"readWrite":{}}"#) }
    }
}

@Suite struct JSONQueryCodecTests {
    @Test func decodesTheWorkedQuery() throws {
        let q = try decodeQuery(
            """
            {"from":[{"collectionId":"msgs"}],
             "where":{"compositeFilter":{"op":"AND","filters":[
               {"fieldFilter":{"field":{"fieldPath":"status"},"op":"EQUAL","value":{"stringValue":"open"}}},
               {"fieldFilter":{"field":{"fieldPath":"score"},"op":"GREATER_THAN","value":{"integerValue":"3"}}}]}},
             "orderBy":[{"field":{"fieldPath":"score"},"direction":"DESCENDING"},{"field":{"fieldPath":"__name__"},"direction":2}],
             "limit":2}
            """)
        #expect(
            q == StructuredQuery(
                collectionID: "msgs",
                filter: .composite(.and, [
                    .field(FieldPath(["status"]), .equal, .string("open")), .field(FieldPath(["score"]), .greaterThan, .integer(3)),
                ]),
                orderBy: [Order(FieldPath(["score"]), .descending), Order(.documentKey, .descending)], limit: 2))
    }

    @Test func everyPart() throws {
        let q = try decodeQuery(
            """
            {"select":{"fields":[{"fieldPath":"a"},{"field_path":"b.`c`"}]},
             "from":[{"collection_id":"c","all_descendants":true}],
             "where":{"unaryFilter":{"op":"IS_NOT_NAN","field":{"fieldPath":"x"}}},
             "order_by":[{"field":{"fieldPath":"x"}},{"field":{"fieldPath":"y"},"direction":"ASCENDING"}],
             "startAt":{"values":[{"doubleValue":1}],"before":true},"end_at":{"values":[]},
             "offset":"3","limit":{"value":7}}
            """)
        #expect(q.select == [FieldPath(["a"]), FieldPath(["b", "c"])])
        #expect(q.collectionID == "c" && q.allDescendants)
        #expect(q.filter == .unary(FieldPath(["x"]), .isNotNaN))
        #expect(q.orderBy == [Order(FieldPath(["x"])), Order(FieldPath(["y"]))])
        #expect(q.startAt == Cursor(values: [.double(1)], before: true))
        #expect(q.endAt == Cursor(values: [], before: false))
        #expect(q.offset == 3 && q.limit == 7)
        #expect(try decodeQuery(#"{"from":[{"collectionId":"c"}],"select":{}}"#).select == nil)
        #expect(try decodeQuery(#"{"from":[{"collectionId":"c"}],"limit":0}"#).limit == 0)
    }

    @Test func operatorsByNameAndNumber() throws {
        let names = ["LESS_THAN", "LESS_THAN_OR_EQUAL", "GREATER_THAN", "GREATER_THAN_OR_EQUAL", "EQUAL", "NOT_EQUAL", "ARRAY_CONTAINS", "IN", "ARRAY_CONTAINS_ANY", "NOT_IN"]
        for (i, name) in names.enumerated() {
            let byName = try RESTCodec.decodeFilter(
                try JSONValue.parse(#"{"fieldFilter":{"field":{"fieldPath":"a"},"op":"\#(name)","value":{"nullValue":null}}}"#))
            let byNumber = try RESTCodec.decodeFilter(
                try JSONValue.parse(#"{"fieldFilter":{"field":{"fieldPath":"a"},"op":\#(i + 1),"value":{"nullValue":null}}}"#))
            #expect(byName == .field(FieldPath(["a"]), FieldOperator(rawValue: name) ?? .equal, .null))
            #expect(byName == byNumber)
        }
        let or = try RESTCodec.decodeFilter(try JSONValue.parse(#"{"compositeFilter":{"op":2,"filters":[]}}"#))
        #expect(or == .composite(.or, []))
        let unary = try RESTCodec.decodeFilter(try JSONValue.parse(#"{"unaryFilter":{"op":3,"field":{"fieldPath":"a"}}}"#))
        #expect(unary == .unary(FieldPath(["a"]), .isNull))
    }

    @Test(arguments: [
        (#"{}"#, "Invalid value at 'structuredQuery.from': a query needs exactly one collection selector."),
        (#"{"from":[]}"#, "Invalid value at 'structuredQuery.from': a query needs exactly one collection selector; got 0."),
        (#"{"from":[{"collectionId":"a"},{"collectionId":"b"}]}"#, "Invalid value at 'structuredQuery.from': a query needs exactly one collection selector; got 2."),
        (#"{"from":[{"collectionId":"a"}],"limit":-2147483649}"#, "Invalid value at 'structuredQuery.limit': -2147483649 is out of range for a 32-bit integer."),
        (#"{"from":[{"collectionId":"a"}],"limit":1.5}"#, "Invalid value at 'structuredQuery.limit': 1.5 is not a 64-bit integer."),
        (#"{"from":[{"collectionId":"a"}],"orderBy":[{"field":{"fieldPath":"a"},"direction":"UP"}]}"#, "Invalid value at 'structuredQuery.orderBy[0].direction': expected one of DIRECTION_UNSPECIFIED, ASCENDING, DESCENDING; got \"UP\"."),
        (#"{"from":[{"collectionId":"a"}],"orderBy":[{}]}"#, "Invalid value at 'structuredQuery.orderBy[0].field': an order needs a field."),
        (#"{"from":[{"collectionId":"a"}],"where":{}}"#, "Invalid value at 'structuredQuery.where': a filter must set one of compositeFilter, fieldFilter, unaryFilter."),
        (#"{"from":[{"collectionId":"a"}],"where":{"fieldFilter":{"field":{"fieldPath":"a"},"op":"EQUAL"}}}"#, "Invalid value at 'structuredQuery.where.fieldFilter.value': a field filter needs a value."),
        (#"{"from":[{"collectionId":"a"}],"where":{"fieldFilter":{"field":{"fieldPath":"a"},"op":"LIKE","value":{"nullValue":null}}}}"#, "Invalid value at 'structuredQuery.where.fieldFilter.op': expected one of LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL, EQUAL, NOT_EQUAL, ARRAY_CONTAINS, IN, ARRAY_CONTAINS_ANY, NOT_IN; got \"LIKE\"."),
        (#"{"from":[{"collectionId":"a"}],"where":{"unaryFilter":{"op":"IS_NAN","field":{"fieldPath":""}}}}"#, "Invalid value at 'structuredQuery.where.unaryFilter.field.fieldPath': Field path must not be empty."),
        (#"{"from":[{"collectionId":"a"}],"where":{"compositeFilter":{"filters":[]}}}"#, "Invalid value at 'structuredQuery.where.compositeFilter.op': a composite filter needs an operator."),
        (#"{"from":[{"collectionId":"a"}],"startAt":{"values":{}}}"#, "Invalid value at 'structuredQuery.startAt.values': expected a JSON array, got object."),
    ])
    func rejects(_ text: String, _ message: String) {
        #expect(throws: FirestoreError.invalidArgument(message)) { try decodeQuery(text) }
    }

    @Test func findNearestIsUnimplemented() {
        #expect(throws: FirestoreError(.unimplemented, "findNearest (vector search) is not supported.")) {
            try decodeQuery(#"{"from":[{"collectionId":"a"}],"findNearest":{}}"#)
        }
    }

    @Test func aggregationAliases() throws {
        let a = try RESTCodec.decodeAggregationQuery(
            try JSONValue.parse(
                """
                {"structuredQuery":{"from":[{"collectionId":"c"}]},
                 "aggregations":[{"count":{}},{"alias":"s","sum":{"field":{"fieldPath":"n"}}},{"avg":{"field":{"fieldPath":"n"}}},
                                 {"count":{"upTo":"5"}},{"alias":"","count":{"up_to":2}}]}
                """))
        #expect(a.aggregations.map(\.alias) == ["field_1", "s", "field_2", "field_3", "field_4"])
        #expect(a.aggregations.map(\.kind) == [.count(upTo: nil), .sum(FieldPath(["n"])), .avg(FieldPath(["n"])), .count(upTo: 5), .count(upTo: 2)])
    }

    @Test(arguments: [
        (#"{"structuredQuery":{"from":[{"collectionId":"c"}]},"aggregations":[{"count":{"upTo":0}}]}"#, "Invalid value at 'structuredAggregationQuery.aggregations[0].count.upTo': The `up_to` value in a COUNT aggregation must be greater than zero."),
        (#"{"structuredQuery":{"from":[{"collectionId":"c"}]},"aggregations":[{"count":{"upTo":-1}}]}"#, "Invalid value at 'structuredAggregationQuery.aggregations[0].count.upTo': The `up_to` value in a COUNT aggregation must be greater than or equal to zero."),
        (#"{"structuredQuery":{"from":[{"collectionId":"c"}]},"aggregations":[{"sum":{}}]}"#, "Invalid value at 'structuredAggregationQuery.aggregations[0].sum.field': Invalid empty property path string."),
        (#"{"structuredQuery":{"from":[{"collectionId":"c"}]},"aggregations":[{"alias":"x"}]}"#, "Invalid value at 'structuredAggregationQuery.aggregations[0]': Operator field in Aggregation is not set."),
        (#"{"structuredQuery":{"from":[{"collectionId":"c"}]},"aggregations":[{"count":{},"avg":{"field":{"fieldPath":"a"}}}]}"#, "Invalid value at 'structuredAggregationQuery.aggregations[0]': an aggregation must set exactly one of count, sum, avg."),
        (#"{"aggregations":[{"count":{}}]}"#, "Invalid value at 'structuredAggregationQuery.structuredQuery': structuredQuery is required."),
    ])
    func aggregationRejects(_ text: String, _ message: String) {
        #expect(throws: FirestoreError.invalidArgument(message)) { try RESTCodec.decodeAggregationQuery(try JSONValue.parse(text)) }
    }
}

@Suite struct JSONResponseCodecTests {
    let doc = Document(
        path: ResourcePath(["c", "d"]), fields: ["b": .integer(1), "a": .double(-0.0)],
        createTime: Timestamp(seconds: 1, nanos: 0), updateTime: Timestamp(seconds: 2, nanos: 5000))
    let t = Timestamp(seconds: 3, nanos: 123_000_000)

    @Test func document() {
        #expect(
            RESTCodec.encodeDocument(doc, database: testDB).serializedString
                == #"{"name":"\#(docsRoot)/c/d","fields":{"a":{"doubleValue":-0.0},"b":{"integerValue":"1"}},"createTime":"1970-01-01T00:00:01Z","updateTime":"1970-01-01T00:00:02.000005Z"}"#
        )
        var empty = doc
        empty.fields = [:]
        #expect(!RESTCodec.encodeDocument(empty, database: testDB).serializedString.contains("fields"))
    }

    /// The answer written straight into one buffer is the `JSONValue` answer's text, byte for
    /// byte: for a query's documents (with and without readTime, done, skippedResults, odd
    /// names and every value kind), for the shapes it hands on, and for one document.
    @Test func serializedResponseMatchesTheValueTree() {
        var odd = doc
        odd.path = ResourcePath(["c\"q", "line\nbreak\u{2028}"])
        odd.fields = [
            "z": .map(["b": .double(1e-7), "a": .array([.double(-0.0), .double(12345678.9), .timestamp(Timestamp(seconds: -1, nanos: 5))])]),
            "é": .bytes([0, 255]), "A": .reference("projects/p/databases/(default)/documents/c/d"), "": .null,
            "g": .geoPoint(GeoPoint(latitude: 0, longitude: -0.0)), "s": .string("tab\there \"quoted\""),
        ]
        let lists: [[RunQueryResponse]] = [
            [],
            [RunQueryResponse(document: doc, readTime: t), RunQueryResponse(document: odd, readTime: t, skippedResults: 3, done: true)],
            [RunQueryResponse(document: odd, readTime: nil)],
            [RunQueryResponse(document: nil, readTime: t, skippedResults: 2, done: true)],
            [RunQueryResponse(document: nil, transaction: [1, 2, 3], readTime: t), RunQueryResponse(document: doc, readTime: t, done: true)],
        ]
        for list in lists {
            let tree = RESTCodec.encodeResponse(.runQuery(list), database: testDB).serialized()
            #expect(RESTCodec.serializeResponse(.runQuery(list), database: testDB) == tree, "\(String(decoding: tree, as: UTF8.self))")
        }
        for d in [doc, odd] {
            #expect(RESTCodec.serializeResponse(.document(d), database: testDB) == RESTCodec.encodeResponse(.document(d), database: testDB).serialized())
        }
        #expect(String(decoding: RESTCodec.serializeResponse(.document(odd), database: testDB), as: UTF8.self).contains(#"/c\"q/line\nbreak\u2028""#))
    }

    @Test func streamsAndResults() {
        #expect(
            RESTCodec.encodeCommitResponse(
                CommitResponse(
                    writeResults: [WriteResult(updateTime: t, transformResults: [.null, .integer(8)]), WriteResult(updateTime: nil)],
                    commitTime: t)
            ).serializedString
                == #"{"writeResults":[{"updateTime":"1970-01-01T00:00:03.123Z","transformResults":[{"nullValue":null},{"integerValue":"8"}]},{}],"commitTime":"1970-01-01T00:00:03.123Z"}"#
        )
        #expect(RESTCodec.encodeCommitResponse(CommitResponse(writeResults: [], commitTime: t)).serializedString == #"{"commitTime":"1970-01-01T00:00:03.123Z"}"#)
        #expect(RESTCodec.encodeRunQueryResponse(RunQueryResponse(document: nil, readTime: t, done: true), database: testDB).serializedString == #"{"readTime":"1970-01-01T00:00:03.123Z","done":true}"#)
        #expect(
            RESTCodec.encodeRunQueryResponse(RunQueryResponse(document: nil, readTime: t, skippedResults: 2), database: testDB).serializedString
                == #"{"readTime":"1970-01-01T00:00:03.123Z","skippedResults":2}"#)
        #expect(RESTCodec.encodeRunQueryResponse(RunQueryResponse(document: doc, readTime: t, done: true), database: testDB).serializedString.hasSuffix(#""readTime":"1970-01-01T00:00:03.123Z","done":true}"#))
        #expect(RESTCodec.encodeRunQueryResponse(RunQueryResponse(document: nil, transaction: [1, 2, 3], readTime: t), database: testDB).serializedString == #"{"transaction":"AQID"}"#)
        #expect(
            RESTCodec.encodeBatchGetDocumentsResponse(BatchGetDocumentsResponse(result: .missing(ResourcePath(["c", "x"])), readTime: t), database: testDB).serializedString
                == #"{"missing":"\#(docsRoot)/c/x","readTime":"1970-01-01T00:00:03.123Z"}"#)
        #expect(RESTCodec.encodeBatchGetDocumentsResponse(BatchGetDocumentsResponse(result: .found(doc), readTime: t), database: testDB).serializedString.hasPrefix(#"{"found":{"name":"#))
        #expect(
            RESTCodec.encodeRunAggregationQueryResult(RunAggregationQueryResponse(aggregateFields: ["s": .integer(3), "field_1": .double(1)], readTime: t)).serializedString
                == #"{"result":{"aggregateFields":{"field_1":{"doubleValue":1.0},"s":{"integerValue":"3"}}},"readTime":"1970-01-01T00:00:03.123Z","done":true}"#
        )
        #expect(
            RESTCodec.encodeError(.notFound("Document \"x\" not found."), httpStatus: 404).serializedString
                == #"{"error":{"code":404,"message":"Document \"x\" not found.","status":"NOT_FOUND"}}"#)
    }
}
