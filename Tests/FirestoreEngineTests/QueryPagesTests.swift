import Foundation
import DocumentStore
import FirestoreModel
import Synchronization
import Testing

@testable import FirestoreEngine

/// RunQuery in pages (`runQueryPages`) against RunQuery answered whole, on both stores.
@Suite struct QueryPagesTests {
    enum StoreKind: CaseIterable { case memory, sqlite }

    static func seeded(_ kind: StoreKind) throws -> FirestoreEngine {
        let store: any DocumentStore = kind == .memory ? InMemoryDocumentStore() : try SQLiteDocumentStore(inMemory: ())
        let e = try FirestoreEngine(store: store, clock: TestClock().now)
        var writes: [Write] = []
        for i in 0..<300 {
            var fields: FieldMap = ["n": .integer(Int64((i * 7919) % 1000)), "b": .string(["x", "y", "z"][i % 3])]
            if i % 11 != 0 { fields["a"] = .integer(Int64(i % 10)) }
            writes.append(set(String(format: "items/i%04d", i), fields))
            if i % 25 == 0 { writes.append(set(String(format: "items/i%04d/items/sub", i), fields)) }
        }
        _ = try e.commit(writes, in: db, auth: .admin)
        return e
    }

    static var queries: [QueryTarget] {
        let items = ResourcePath([])
        func q(_ build: (inout StructuredQuery) -> Void) -> QueryTarget {
            var query = StructuredQuery(collectionID: "items")
            build(&query)
            return QueryTarget(parent: items, query: query)
        }
        return [
            q { _ in },
            q { $0.orderBy = [Order(FieldPath(["a"]))] },
            q { $0.orderBy = [Order(FieldPath(["n"]), .descending)]; $0.limit = 150; $0.offset = 7 },
            q { $0.filter = .field(FieldPath(["a"]), .equal, .integer(3)); $0.orderBy = [Order(FieldPath(["n"]))] },
            q { $0.filter = .field(FieldPath(["a"]), .in, .array([.integer(1), .integer(2)])) },
            q { $0.orderBy = [Order(FieldPath(["n"]))]; $0.startAt = Cursor(values: [.integer(100)], before: true); $0.endAt = Cursor(values: [.integer(800)], before: false) },
            q { $0.orderBy = [Order(FieldPath(["b"])), Order(FieldPath(["n"]), .descending)]; $0.limit = 61 },
            q { $0.allDescendants = true; $0.offset = 290 },
            q { $0.limit = 0 },
            q { $0.filter = .field(FieldPath(["a"]), .equal, .integer(42)) },
        ]
    }

    @Test(arguments: StoreKind.allCases, [1, 7, 50, 1000])
    func pagesConcatenateToTheWholeAnswer(_ kind: StoreKind, pageSize: Int) async throws {
        let e = try Self.seeded(kind)
        for target in Self.queries {
            let whole = try e.runQuery(target, in: db, auth: .admin)
            let pages = Pages()
            try await e.runQueryPages(target, in: db, consistency: .strong, auth: .admin, pageSize: pageSize) { page in
                pages.append(page)
            }
            let got = pages.all
            #expect(got.flatMap(\.documents).map(\.path) == whole.value.documents.map(\.path), "\(target.query)")
            #expect(got.flatMap(\.documents) == whole.value.documents)
            #expect(got.first?.skipped == whole.value.skipped)
            #expect(got.dropFirst().allSatisfy { $0.skipped == 0 })
            #expect(got.map(\.isLast) == Array(repeating: false, count: got.count - 1) + [true])
            #expect(got.dropLast().allSatisfy { $0.documents.count == pageSize })
            #expect(got.allSatisfy { $0.documents.count <= pageSize })
            #expect(Set(got.map(\.readTime)).count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func everyPageReadsTheFirstPagesSnapshot(_ kind: StoreKind) async throws {
        let e = try Self.seeded(kind)
        let target = Self.queries[0]
        let before = try e.runQuery(target, in: db, auth: .admin).value.documents
        let pages = Pages()
        try await e.runQueryPages(target, in: db, consistency: .strong, auth: .admin, pageSize: 40) { (page) throws(FirestoreError) in
            pages.append(page)
            // Commits between pages: a new first document, a deleted and a changed later one.
            _ = try e.commit(
                [set("items/a\(pages.all.count)", ["n": .integer(1)]), Write(operation: .delete(path("items/i0299"))),
                 set("items/i0200", ["n": .integer(-1)])],
                in: db, auth: .admin)
        }
        #expect(pages.all.flatMap(\.documents) == before)
        #expect(pages.all.count == 8)
    }

    @Test func aTransactionalQueryIsRefused() async throws {
        let e = try Self.seeded(.memory)
        await #expect(throws: FirestoreError.self) {
            try await e.runQueryPages(Self.queries[0], in: db, consistency: .newTransaction(.readOnly(readTime: nil)), auth: .admin, pageSize: 10) { _ in }
        }
    }

    @Test func rulesAreCheckedOnceBeforeTheFirstPage() async throws {
        let asked = Atomic<Int>(0)
        let policy = ClosurePolicy { requests, _ in
            asked.add(1, ordering: .relaxed)
            return requests.first?.method == .list ? FirestoreError(.permissionDenied, "no") : nil
        }
        let e = try FirestoreEngine(store: InMemoryDocumentStore(), policy: policy, clock: TestClock().now)
        _ = try e.commit([set("items/a", ["n": .integer(1)])], in: db, auth: .admin)
        let pages = Pages()
        await #expect(throws: FirestoreError.self) {
            try await e.runQueryPages(Self.queries[0], in: db, consistency: .strong, auth: alice, pageSize: 10) { pages.append($0) }
        }
        #expect(pages.all.isEmpty)
        #expect(asked.load(ordering: .relaxed) == 1)
    }
}

/// Pages collected by a `deliver` closure.
final class Pages: Sendable {
    private let pages = Mutex<[QueryPage]>([])
    func append(_ p: QueryPage) { pages.withLock { $0.append(p) } }
    var all: [QueryPage] { pages.withLock { $0 } }
}
