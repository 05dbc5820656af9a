import FirestoreRPC
import FirestoreModel
import Testing

@testable import ProtoWire

@Suite("StructuredQuery, RunQueryRequest, RunAggregationQueryRequest")
struct QueryDecodingTests {
    static func f(_ text: String) -> FieldPath { Fx.field(text) }

    @Test func pythonQueryWithEveryFilter() throws {
        let request = try RunQueryRequest(serializedBytes: Hex.bytes(PythonFixtures.runQueryEveryFilter))
        let filters: [Filter] = [
            .field(Self.f("a"), .lessThan, .integer(1)), .field(Self.f("b"), .lessThanOrEqual, .integer(2)),
            .field(Self.f("c"), .greaterThan, .integer(3)), .field(Self.f("d"), .greaterThanOrEqual, .integer(4)),
            .field(Self.f("e"), .equal, .string("x")), .field(Self.f("f"), .notEqual, .boolean(false)),
            .field(Self.f("g"), .arrayContains, .integer(5)), .field(Self.f("h"), .in, .array([.integer(1), .integer(2)])),
            .field(Self.f("i"), .arrayContainsAny, .array([.string("p")])), .field(Self.f("j"), .notIn, .array([.integer(0)])),
            .unary(Self.f("k"), .isNull), .unary(Self.f("l"), .isNotNull), .unary(Self.f("m"), .isNaN),
            .unary(Self.f("n"), .isNotNaN),
            .composite(.or, [.field(Self.f("o.p"), .equal, .integer(1)), .field(FieldPath(["q r"]), .greaterThan, .integer(2))]),
        ]
        let query = StructuredQuery(
            select: [Self.f("name"), Self.f("age")], collectionID: "users", filter: .composite(.and, filters),
            orderBy: [Order(Self.f("a"), .descending), Order(Self.f("b"), .ascending)],
            startAt: Cursor(values: [.integer(1), .integer(2)], before: false),
            endAt: Cursor(values: [.integer(9), .integer(9)], before: false), offset: 3, limit: 7)
        #expect(request.database == Fx.db)
        #expect(request.target == QueryTarget(parent: .root, query: query))
        #expect(request.consistency == .transaction(Array("tx".utf8)))
    }

    @Test func pythonCollectionGroupUnderADocument() throws {
        let request = try RunQueryRequest(serializedBytes: Hex.bytes(PythonFixtures.runQueryCollectionGroup))
        #expect(
            request.target
                == QueryTarget(
                    parent: Fx.path("rooms/r1"),
                    query: StructuredQuery(
                        collectionID: "msgs", allDescendants: true, filter: .field(Self.f("n"), .equal, .integer(0)), limit: 0)))
        #expect(request.consistency == .readTime(Fx.ts))
    }

    @Test func pythonAggregationNamesUnnamedAliases() throws {
        let request = try RunAggregationQueryRequest(serializedBytes: Hex.bytes(PythonFixtures.runAggregation))
        #expect(
            request.target
                == QueryTarget(
                    parent: .root,
                    query: StructuredQuery(collectionID: "users", filter: .field(Self.f("age"), .greaterThan, .integer(1)))))
        #expect(
            request.aggregations == [
                Aggregation(alias: "field_1", kind: .count(upTo: 10)),
                Aggregation(alias: "field_2", kind: .sum(Self.f("score"))),
                Aggregation(alias: "mean", kind: .avg(Self.f("score"))),
                Aggregation(alias: "c", kind: .count(upTo: nil)),
                Aggregation(alias: "field_3", kind: .sum(Self.f("x"))),
            ])
        #expect(request.consistency == .newTransaction(.readOnly(readTime: Fx.ts)))
    }

    /// A RunQueryRequest with parent root and `query` written by `body`.
    static func runQuery(_ body: (inout ProtoWriter) -> Void) -> [UInt8] {
        Fx.message { w in
            w.writeStringField(1, Fx.docs)
            w.writeMessageField(2, body)
        }
    }

    static func from(_ id: String, _ w: inout ProtoWriter) { w.writeMessageField(2) { $0.writeStringField(2, id) } }

    @Test func limitWrapperPresenceAndEmptySelect() throws {
        // select {} (no fields) = all fields; limit {} = 0 (docs/reference/grpc-and-listen.md §5.3: present wrapper, value 0).
        let bytes = Self.runQuery { w in
            w.writeMessageField(1) { _ in }
            Self.from("c", &w)
            w.writeMessageField(5) { _ in }
        }
        #expect(Array(bytes.suffix(2)) == [0x2A, 0x00])  // the hand-made bytes end in `limit {}`
        let request = try RunQueryRequest(serializedBytes: bytes)
        #expect(request.target.query == StructuredQuery(select: nil, collectionID: "c", limit: 0))
        let noLimit = try RunQueryRequest(serializedBytes: Self.runQuery { Self.from("c", &$0) })
        #expect(noLimit.target.query.limit == nil)
        #expect(noLimit.consistency == .strong)
    }

    @Test func limitBytesFromTheReference() throws {
        // `2a 02 08 05` = limit 5 (docs/reference/grpc-and-listen.md §6.4).
        let bytes = Self.runQuery { w in
            Self.from("c", &w)
            w.writeRaw(Hex.bytes("2a 02 08 05"))
        }
        #expect(try RunQueryRequest(serializedBytes: bytes).target.query.limit == 5)
    }

    @Test func negativeOffsetIsLeftToTheModel() throws {
        let bytes = Self.runQuery { w in
            Self.from("c", &w)
            w.writeInt32Field(6, -1)
        }
        #expect(try RunQueryRequest(serializedBytes: bytes).target.query.offset == -1)
    }

    @Test(arguments: [
        (Fx.message { _ in }, "Invalid RunQueryRequest at structured_query.from: a query needs exactly one collection selector; got 0."),
        (Fx.message { w in
            Self.from("a", &w)
            Self.from("b", &w)
        }, "Invalid RunQueryRequest at structured_query.from: a query needs exactly one collection selector; got 2."),
        (Fx.message { w in
            Self.from("a", &w)
            w.writeMessageField(3) { f in f.writeMessageField(2) { ff in
                ff.writeMessageField(1) { $0.writeStringField(2, "x") }
                ff.writeInt32Field(2, 11)
                ff.writeMessageField(3) { $0.writeUInt64Field(11, 0) }
            } }
        }, "Invalid RunQueryRequest at structured_query.where.field_filter.op: unknown field filter operator 11."),
        (Fx.message { w in
            Self.from("a", &w)
            w.writeMessageField(3) { f in f.writeMessageField(3) { u in
                u.writeInt32Field(1, 1)
                u.writeMessageField(2) { $0.writeStringField(2, "x") }
            } }
        }, "Invalid RunQueryRequest at structured_query.where.unary_filter.op: unknown unary filter operator 1."),
        (Fx.message { w in
            Self.from("a", &w)
            w.writeMessageField(3) { f in f.writeMessageField(1) { c in
                c.writeMessageField(2) { $0.writeMessageField(3) { u in
                    u.writeInt32Field(1, 3)
                    u.writeMessageField(2) { $0.writeStringField(2, "x") }
                } }
            } }
        }, "Invalid RunQueryRequest at structured_query.where.composite_filter.op: unknown composite operator 0."),
        (Fx.message { w in
            Self.from("a", &w)
            w.writeMessageField(3) { f in f.writeMessageField(1) { c in
                c.writeInt32Field(1, 1)
                c.writeMessageField(2) { $0.writeMessageField(3) { $0.writeInt32Field(1, 3) } }
            } }
        }, "Invalid RunQueryRequest at structured_query.where.composite_filter.filters[0].unary_filter.field: a unary filter needs a field."),
        (Fx.message { w in
            Self.from("a", &w)
            w.writeMessageField(3) { _ in }
        }, "Invalid RunQueryRequest at structured_query.where: a filter must set one of composite_filter, field_filter, unary_filter."),
        (Fx.message { w in
            Self.from("a", &w)
            w.writeMessageField(4) { o in
                o.writeMessageField(1) { $0.writeStringField(2, "x") }
                o.writeInt32Field(2, 3)
            }
        }, "Invalid RunQueryRequest at structured_query.order_by[0].direction: unknown direction 3."),
        (Fx.message { w in
            Self.from("a", &w)
            w.writeMessageField(4) { $0.writeMessageField(1) { $0.writeStringField(2, "") } }
        }, "Invalid RunQueryRequest at structured_query.order_by[0].field.field_path: a field reference needs a field_path."),
        (Fx.message { w in
            Self.from("a", &w)
            w.writeMessageField(4) { $0.writeMessageField(1) { $0.writeStringField(2, "a b") } }
        }, "Invalid RunQueryRequest at structured_query.order_by[0].field.field_path: Invalid field path: a b"),
    ])
    func queryErrorsNameTheField(query: [UInt8], message: String) {
        let bytes = Fx.message { w in
            w.writeStringField(1, Fx.docs)
            w.writeBytesField(2, query)
        }
        #expect(throws: FirestoreError.invalidArgument(message)) { try RunQueryRequest(serializedBytes: bytes) }
    }

    @Test func unsupportedFeaturesAreUnimplemented() {
        let findNearest = Self.runQuery { w in
            Self.from("c", &w)
            w.writeMessageField(9) { _ in }
        }
        for bytes in [findNearest] {
            do {
                _ = try RunQueryRequest(serializedBytes: bytes)
                Issue.record("expected UNIMPLEMENTED")
            } catch {
                #expect(error.code == .unimplemented)
            }
        }
    }

    @Test func parentAndQueryAreRequired() {
        #expect(throws: FirestoreError.invalidArgument("Invalid RunQueryRequest at parent: parent is required.")) {
            try RunQueryRequest(serializedBytes: [])
        }
        #expect(throws: FirestoreError.invalidArgument("Invalid RunQueryRequest at structured_query: structured_query is required.")) {
            try RunQueryRequest(serializedBytes: Fx.message { $0.writeStringField(1, Fx.docs) })
        }
        #expect(throws: FirestoreError.self) {
            try RunQueryRequest(serializedBytes: Fx.message { $0.writeStringField(1, Fx.dbName + "/docs") })
        }
    }

    /// A RunAggregationQueryRequest over collection `c` with the given aggregation bodies.
    static func aggregation(_ aggregations: [[UInt8]]) -> [UInt8] {
        Fx.message { w in
            w.writeStringField(1, Fx.docs)
            w.writeMessageField(2) { a in
                a.writeMessageField(1) { Self.from("c", &$0) }
                for body in aggregations { a.writeBytesField(3, body) }
            }
        }
    }

    static let count = Fx.message { $0.writeMessageField(1) { _ in } }

    static func aliased(_ alias: String) -> [UInt8] {
        Fx.message { w in
            w.writeMessageField(1) { _ in }
            w.writeStringField(7, alias)
        }
    }

    @Test func aliasesAndCountLimits() throws {
        let request = try RunAggregationQueryRequest(
            serializedBytes: Self.aggregation([Self.count, Self.aliased("x"), Self.aliased("")]))
        // Unnamed ones are numbered among themselves, skipping the named one.
        #expect(request.aggregations.map(\.alias) == ["field_1", "x", "field_2"])
        // An explicit alias equal to a generated one is decoded as sent; the engine refuses
        // the duplicate (Aggregation.validate), so clients read the emulator's message.
        let clash = try RunAggregationQueryRequest(
            serializedBytes: Self.aggregation([Self.count, Self.aliased("field_2"), Self.aliased("")]))
        #expect(clash.aggregations.map(\.alias) == ["field_1", "field_2", "field_2"])
        // Counts and uniqueness are the engine's: none and six decode.
        #expect(try RunAggregationQueryRequest(serializedBytes: Self.aggregation([])).aggregations.isEmpty)
        #expect(
            try RunAggregationQueryRequest(serializedBytes: Self.aggregation(Array(repeating: Self.count, count: 6)))
                .aggregations.count == 6)
    }

    @Test(arguments: [
        ([Fx.message { $0.writeStringField(7, "a") }],
         "Invalid RunAggregationQueryRequest at structured_aggregation_query.aggregations[0]: Operator field in Aggregation is not set."),
        ([Fx.message { $0.writeMessageField(1) { $0.writeMessageField(1) { _ in } } }],
         "Invalid RunAggregationQueryRequest at structured_aggregation_query.aggregations[0].count.up_to: The `up_to` value in a COUNT aggregation must be greater than zero."),
        ([Fx.message { $0.writeMessageField(2) { _ in } }],
         "Invalid RunAggregationQueryRequest at structured_aggregation_query.aggregations[0].sum.field: Invalid empty property path string."),
    ])
    func aggregationErrors(aggregations: [[UInt8]], message: String) {
        #expect(throws: FirestoreError.invalidArgument(message)) {
            try RunAggregationQueryRequest(serializedBytes: Self.aggregation(aggregations))
        }
    }
}
