import Testing

@testable import FirestoreModel

/// `StructuredQuery.scanned(for:)` and `Aggregation.validate`, as the emulator answers
/// (Tests/Conformance/aggregation_cases.json).
@Suite struct AggregationSemanticsTests {
    func f(_ s: String) -> FieldPath { FieldPath(s.split(separator: ".").map(String.init)) }
    func sum(_ s: String) -> Aggregation { Aggregation(alias: s, kind: .sum(f(s))) }

    @Test func summedFieldsFollowTheQuerysOwnOrderLexicographically() {
        // No order: the summed fields, sorted, then __name__.
        let plain = StructuredQuery(collectionID: "c").scanned(for: [sum("z"), sum("m"), Aggregation(alias: "n", kind: .count(upTo: nil))])
        #expect(plain.orderBy == [Order(f("m")), Order(f("z")), Order(.documentKey)])
        // An inequality field comes first; a descending explicit order sets the direction.
        let ranged = StructuredQuery(collectionID: "c", filter: .field(f("y"), .greaterThan, .integer(2))).scanned(for: [sum("x")])
        #expect(ranged.orderBy == [Order(f("y")), Order(f("x")), Order(.documentKey)])
        let desc = StructuredQuery(collectionID: "c", orderBy: [Order(f("a"), .descending)]).scanned(for: [sum("b"), sum("a")])
        #expect(desc.orderBy == [Order(f("a"), .descending), Order(f("b"), .descending), Order(.documentKey, .descending)])
        // A count alone changes nothing.
        let counted = StructuredQuery(collectionID: "c", limit: 3)
        #expect(counted.scanned(for: [Aggregation(alias: "n", kind: .count(upTo: nil))]) == counted)
        // A cursor reaching the implicit __name__ keeps it before the summed fields.
        let cursor = Cursor(values: [.integer(1), .reference("projects/p/databases/(default)/documents/c/d")], before: true)
        let paged = StructuredQuery(collectionID: "c", orderBy: [Order(f("a"))], startAt: cursor).scanned(for: [sum("b")])
        #expect(paged.orderBy == [Order(f("a")), Order(.documentKey), Order(f("b"))])
    }

    @Test func aggregationListsAreCheckedInTheEmulatorsOrder() {
        let count = Aggregation.Kind.count(upTo: nil)
        func message(_ list: [Aggregation]) -> String? {
            do {
                try Aggregation.validate(list)
                return nil
            } catch { return error.message }
        }
        #expect(message([]) == "Aggregations can not be empty.")
        #expect(
            message([Aggregation(alias: "t", kind: count), Aggregation(alias: "t", kind: count), Aggregation(alias: "__x__", kind: count)])
                == "The property.name \"__x__\" is reserved.")
        #expect(
            message([Aggregation(alias: "t", kind: count), Aggregation(alias: "t", kind: count)])
                == "Aggregation aliases contain duplicate alias: t.")
        #expect(
            message([Aggregation(alias: String(repeating: "é", count: 751), kind: count)]) == "The property.name is longer than 1500 bytes."
        )
        #expect(
            message(["__", "___", "____", "__x", String(repeating: "é", count: 750)].map { Aggregation(alias: $0, kind: count) }) == nil)
        #expect(message([Aggregation(alias: "s", kind: .avg(.documentKey))]) == "Aggregations are not supported for the property: __key__")
        #expect(Aggregation.invalidUpToMessage(-1) == "The `up_to` value in a COUNT aggregation must be greater than or equal to zero.")
        #expect(Aggregation.invalidUpToMessage(0) != nil && Aggregation.invalidUpToMessage(1) == nil)
    }
}
