import Testing

@testable import FirestoreModel

@Suite struct FilterTests {
    let db = DatabaseID(project: "p")

    func doc(_ id: String, _ fields: FieldMap) -> Document {
        Document(path: ResourcePath(["c", id]), fields: fields, createTime: Timestamp(seconds: 0, nanos: 0), updateTime: Timestamp(seconds: 0, nanos: 0))
    }

    func matches(_ f: Filter, _ v: Value?) -> Bool {
        f.matches(doc("x", v.map { ["a": $0] } ?? [:]), in: db)
    }

    let a = FieldPath(["a"])

    @Test func missingFieldsNeverMatch() {
        for op in FieldOperator.allCases {
            #expect(!matches(.field(a, op, .array([.integer(1)])), nil), "\(op)")
            #expect(!matches(.field(a, op, .integer(1)), nil), "\(op)")
        }
        for op in UnaryOperator.allCases { #expect(!matches(.unary(a, op), nil), "\(op)") }
    }

    @Test func equalityAcrossIntAndDouble() {
        #expect(matches(.field(a, .equal, .integer(3)), .double(3)))
        #expect(matches(.field(a, .equal, .double(-0.0)), .integer(0)))
        #expect(!matches(.field(a, .equal, .integer(3)), .string("3")))
        #expect(!matches(.field(a, .equal, .double(9_007_199_254_740_992)), .integer(9_007_199_254_740_993)))
        #expect(matches(.field(a, .equal, .array([.integer(3)])), .array([.double(3)])))
    }

    @Test func nullAndNaNOperandsEqualNothing() {
        #expect(!matches(.field(a, .equal, .null), .null))
        #expect(!matches(.field(a, .equal, .double(.nan)), .double(.nan)))
        #expect(!matches(.field(a, .notEqual, .null), .integer(1)))
        #expect(matches(.field(a, .notEqual, .double(.nan)), .double(.nan)))
        #expect(matches(.field(a, .notEqual, .double(.nan)), .string("x")))
        #expect(!matches(.field(a, .notEqual, .double(.nan)), .null))
        #expect(!matches(.field(a, .in, .array([.null])), .null))
        #expect(!matches(.field(a, .in, .array([.double(.nan)])), .double(.nan)))
        #expect(matches(.field(a, .in, .array([.double(.nan), .integer(1)])), .double(1)))
        #expect(!matches(.field(a, .arrayContains, .null), .array([.null])))
        #expect(!matches(.field(a, .arrayContains, .double(.nan)), .array([.double(.nan)])))
        #expect(!matches(.field(a, .arrayContainsAny, .array([.null, .double(.nan)])), .array([.null, .double(.nan)])))
        #expect(!matches(.field(a, .greaterThanOrEqual, .null), .null))
        #expect(!matches(.field(a, .lessThanOrEqual, .double(.nan)), .double(.nan)))
        #expect(!matches(.field(a, .greaterThan, .double(.nan)), .integer(1)))
    }

    @Test func notEqualAndNotIn() {
        #expect(matches(.field(a, .notEqual, .integer(3)), .string("3")))
        #expect(!matches(.field(a, .notEqual, .integer(3)), .double(3)))
        #expect(!matches(.field(a, .notEqual, .integer(3)), .null))
        #expect(matches(.field(a, .notEqual, .integer(3)), .double(.nan)))
        #expect(matches(.field(a, .notIn, .array([.integer(3), .boolean(true)])), .boolean(false)))
        #expect(!matches(.field(a, .notIn, .array([.integer(3)])), .double(3)))
        #expect(!matches(.field(a, .notIn, .array([.integer(3)])), .null))
        #expect(!matches(.field(a, .notIn, .array([.integer(3), .null])), .integer(4)))
        #expect(matches(.field(a, .notIn, .array([.double(.nan)])), .double(.nan)))
    }

    @Test func rangesStayWithinTheTypeGroup() {
        #expect(matches(.field(a, .greaterThan, .integer(2)), .double(2.5)))
        #expect(!matches(.field(a, .greaterThan, .integer(2)), .string("3")))
        #expect(!matches(.field(a, .lessThan, .string("")), .integer(1)))
        #expect(matches(.field(a, .greaterThan, .string("")), .string("a")))
        #expect(matches(.field(a, .lessThan, .boolean(true)), .boolean(false)))
        #expect(matches(.field(a, .lessThan, .array([.integer(5)])), .array([.integer(1), .integer(2)])))
        #expect(!matches(.field(a, .lessThan, .double(.infinity)), .double(.infinity)))
        #expect(!matches(.field(a, .greaterThan, .double(-.infinity)), .double(.nan)))
        #expect(matches(.field(a, .greaterThan, .double(9_007_199_254_740_992)), .integer(9_007_199_254_740_993)))
        #expect(matches(.field(a, .lessThanOrEqual, .integer(0)), .double(-0.0)))
    }

    @Test func membershipOperators() {
        #expect(matches(.field(a, .in, .array([.integer(3), .string("3")])), .double(3)))
        #expect(matches(.field(a, .in, .array([.double(3)])), .integer(3)))
        #expect(!matches(.field(a, .in, .array([.integer(3)])), .array([.integer(3)])))
        #expect(matches(.field(a, .arrayContains, .integer(3)), .array([.double(3)])))
        #expect(matches(.field(a, .arrayContains, .double(-0.0)), .array([.integer(0)])))
        #expect(!matches(.field(a, .arrayContains, .integer(3)), .integer(3)))
        #expect(matches(.field(a, .arrayContainsAny, .array([.integer(2), .string("a")])), .array([.string("a")])))
        #expect(!matches(.field(a, .arrayContainsAny, .array([.integer(2)])), .array([])))
    }

    @Test func unaryOperators() {
        #expect(matches(.unary(a, .isNaN), .double(.nan)) && !matches(.unary(a, .isNaN), .integer(1)))
        #expect(matches(.unary(a, .isNull), .null) && !matches(.unary(a, .isNull), .boolean(false)))
        #expect(matches(.unary(a, .isNotNaN), .string("x")) && !matches(.unary(a, .isNotNaN), .null))
        #expect(!matches(.unary(a, .isNotNaN), .double(.nan)))
        #expect(matches(.unary(a, .isNotNull), .double(.nan)) && !matches(.unary(a, .isNotNull), .null))
    }

    @Test func compositeAndNames() {
        let d = doc("d1", ["a": .integer(1), "b": .boolean(true), "m": .map(["x": .integer(5)])])
        #expect(Filter.composite(.and, [.field(a, .equal, .integer(1)), .field(FieldPath(["b"]), .equal, .boolean(true))]).matches(d, in: db))
        #expect(!Filter.composite(.and, [.field(a, .equal, .integer(1)), .field(FieldPath(["b"]), .equal, .boolean(false))]).matches(d, in: db))
        #expect(Filter.composite(.or, [.field(a, .equal, .integer(2)), .field(FieldPath(["m", "x"]), .greaterThan, .integer(4))]).matches(d, in: db))
        #expect(Filter.composite(.and, []).matches(d, in: db))
        #expect(!Filter.composite(.or, []).matches(d, in: db))
        let name = Value.reference(db.resourceName(d.path))
        #expect(Filter.field(.documentKey, .equal, name).matches(d, in: db))
        #expect(Filter.field(.documentKey, .in, .array([name])).matches(d, in: db))
        #expect(Filter.field(.documentKey, .lessThan, .reference(db.resourceName(ResourcePath(["c", "d2"])))).matches(d, in: db))
    }

    @Test func inequalityFieldsIncludeNegations() {
        let f = Filter.composite(.and, [
            .field(a, .greaterThan, .integer(1)), .unary(FieldPath(["n"]), .isNotNull), .unary(FieldPath(["x"]), .isNotNaN),
            .unary(FieldPath(["y"]), .isNull), .field(FieldPath(["e"]), .equal, .integer(1)), .field(FieldPath(["i"]), .notIn, .array([.integer(1)])),
        ])
        #expect(f.inequalityFields == [a, FieldPath(["n"]), FieldPath(["x"]), FieldPath(["i"])])
    }
}
