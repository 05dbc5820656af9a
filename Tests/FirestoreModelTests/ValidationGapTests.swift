import Testing

@testable import FirestoreModel

/// Inputs production refuses with INVALID_ARGUMENT (reference §1.5, §1.10), found by the
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
        #expect(product.disjunctionCount == 31)
        #expect(invalid(StructuredQuery(collectionID: "c", filter: product)))
        let inThirtyOne = Filter.composite(.and, [
            .field(FieldPath(["a"]), .in, .array((0..<11).map { .integer(Int64($0)) })),
            .field(FieldPath(["b"]), .in, .array([.integer(1), .integer(2), .integer(3)])),
        ])
        #expect(invalid(StructuredQuery(collectionID: "c", filter: inThirtyOne)))
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
