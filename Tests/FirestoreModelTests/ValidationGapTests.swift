import Testing

@testable import FirestoreModel

/// Inputs production refuses with INVALID_ARGUMENT (docs/reference/firestore-wire.md §1.5, §1.10), found by the
/// hostile suite running and answering them.
@Suite struct ValidationGapTests {
    func invalid(_ q: StructuredQuery) -> Bool {
        do {
            try q.validate()
            return false
        } catch {
            return error.code == .invalidArgument
        }
    }

    @Test func collectionIDsWithSlashesOrReservedNamesAreRefused() {
        #expect(invalid(StructuredQuery(collectionID: "a/b")))
        #expect(invalid(StructuredQuery(collectionID: "__x__")))
        #expect(!invalid(StructuredQuery(collectionID: "rooms")))
    }

    @Test func moreThanThirtyDisjunctionsAreRefusedWithoutExpandingThem() {
        let thirtyOne = Filter.composite(.or, (0..<31).map { .field(FieldPath(["a"]), .equal, .integer(Int64($0))) })
        #expect(invalid(StructuredQuery(collectionID: "c", filter: thirtyOne)))
        let thirty = Filter.composite(.or, (0..<30).map { .field(FieldPath(["a"]), .equal, .integer(Int64($0))) })
        #expect(!invalid(StructuredQuery(collectionID: "c", filter: thirty)))
        // AND of 30 two-way ORs is 2^30 disjunctions: refused, and counted without expansion.
        let product = Filter.composite(.and, (0..<30).map { i in
            .composite(.or, [.field(FieldPath(["a\(i)"]), .equal, .integer(1)), .field(FieldPath(["b\(i)"]), .equal, .integer(1))])
        })
        #expect(product.disjunctionCount == 1 << 30)
        #expect(invalid(StructuredQuery(collectionID: "c", filter: product)))
        let inThirtyOne = Filter.composite(.and, [
            .field(FieldPath(["a"]), .in, .array((0..<11).map { .integer(Int64($0)) })),
            .field(FieldPath(["b"]), .in, .array([.integer(1), .integer(2), .integer(3)])),
        ])
        #expect(invalid(StructuredQuery(collectionID: "c", filter: inThirtyOne)))
        // The emulator counts a repeated disjunct once (Tests/Conformance/query_cases.json).
        let same = Filter.composite(.or, (0..<31).map { _ in .field(FieldPath(["a"]), .equal, .integer(1)) })
        #expect(same.disjunctionCount == 1 && !invalid(StructuredQuery(collectionID: "c", filter: same)))
        #expect(throws: FirestoreError.invalidArgument(
            "Too many disjunctions after normalization. Result had 31 disjunctions which is more than the maximum of 30")) {
            try StructuredQuery(collectionID: "c", filter: thirtyOne).validate()
        }
    }

    /// Production's "Limitations" (firebase.google.com/docs/firestore/query-data/queries):
    /// one array-contains per disjunction; not-in never with in, array-contains-any or OR.
    @Test func combinationsProductionRefuses() {
        let ac = Filter.field(FieldPath(["t"]), .arrayContains, .integer(1))
        let aca = Filter.field(FieldPath(["t"]), .arrayContainsAny, .array([.integer(2)]))
        let notIn = Filter.field(FieldPath(["a"]), .notIn, .array([.integer(1)]))
        let inF = Filter.field(FieldPath(["b"]), .in, .array([.integer(1)]))
        let eq = Filter.field(FieldPath(["b"]), .equal, .integer(1))
        let perDisjunction = "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."
        let conflict = "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'."
        for (f, message) in [
            (Filter.composite(.and, [ac, aca]), perDisjunction), (.composite(.and, [ac, ac]), perDisjunction),
            (.composite(.and, [ac, .composite(.or, [ac, eq])]), perDisjunction),
            (.composite(.and, [notIn, inF]), conflict), (.composite(.and, [notIn, aca]), conflict),
            (.composite(.or, [notIn, eq]), conflict),
        ] {
            #expect(throws: FirestoreError.invalidArgument(message)) { try StructuredQuery(collectionID: "c", filter: f).validate() }
        }
        #expect(!invalid(StructuredQuery(collectionID: "c", filter: .composite(.or, [ac, aca]))))
        #expect(!invalid(StructuredQuery(collectionID: "c", filter: .composite(.and, [notIn, ac]))))
        #expect(!invalid(StructuredQuery(collectionID: "c", filter: .composite(.and, [ac, inF]))))
    }

    @Test func referencesMustNameValidDocuments() {
        let root = "projects/p/databases/(default)/documents"
        for bad in ["\(root)/c/..", "\(root)/c/__x__", "\(root)/../d", "\(root)/c", "not/a/name"] {
            #expect(throws: FirestoreError.self, "\(bad)") {
                try DocumentLimits.validate(fields: ["r": .reference(bad)], path: ResourcePath(["c", "d"]))
            }
        }
        #expect(throws: Never.self) {
            try DocumentLimits.validate(fields: ["r": .reference("\(root)/c/d/e/f")], path: ResourcePath(["c", "d"]))
        }
    }
}
