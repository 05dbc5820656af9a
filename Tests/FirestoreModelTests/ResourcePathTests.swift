import Testing

@testable import FirestoreModel

@Suite struct ResourcePathTests {
    let db = DatabaseID(project: "demo-p")

    @Test func shapes() {
        let doc = ResourcePath(relative: "rooms/r1")
        #expect(doc.isDocument && !doc.isCollection && doc.lastSegment == "r1")
        #expect(doc.parent == ResourcePath(["rooms"]) && doc.parent.isCollection)
        #expect(ResourcePath.root.segments.isEmpty && !ResourcePath.root.isDocument && ResourcePath(relative: "") == .root)
        #expect(doc.appending("msgs").relativeString == "rooms/r1/msgs")
        #expect(ResourcePath(["rooms"]).isPrefix(of: doc) && doc.isPrefix(of: doc) && !doc.isPrefix(of: ResourcePath(["rooms"])))
        #expect(ResourcePath(relative: "a//b").segments == ["a", "", "b"])
    }

    @Test func keyOrder() {
        let ascending = ["c/__id2__", "c/__id10__", "c/A", "c/a", "c/a/s/x", "c/b", "ca/a"].map { ResourcePath(relative: $0) }
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() { #expect((a < b) == (i < j), "\(a) vs \(b)") }
        }
    }

    @Test func validIDs() throws {
        try ResourcePath(relative: "c/__id123__/d/é😀").validateIDs()
        try ResourcePath([String(repeating: "x", count: 1500)]).validateIDs()
        try ResourcePath(Array(repeating: "a", count: 200)).validateIDs()
    }

    @Test(arguments: [
        ["c", ""], ["c", "."], ["c", ".."], ["c", "a/b"], ["c", "__x__"], ["__c__"], ["c", "__id__"],
        [String(repeating: "x", count: 1501)], Array(repeating: "a", count: 201),
    ])
    func invalidIDs(_ segments: [String]) {
        #expect(throws: FirestoreError.self) { try ResourcePath(segments).validateIDs() }
    }

    @Test func databaseNames() throws {
        #expect(db.name == "projects/demo-p/databases/(default)")
        #expect(db.documentsRoot == "projects/demo-p/databases/(default)/documents")
        #expect(db.resourceName(.root) == db.documentsRoot)
        #expect(db.resourceName(ResourcePath(["c", "d"])) == db.documentsRoot + "/c/d")
        #expect(try db.path(fromName: db.documentsRoot) == .root)
        #expect(try db.path(fromName: db.documentsRoot + "/c") == ResourcePath(["c"]))
        #expect(try db.documentPath(fromName: db.documentsRoot + "/c/d/e/f") == ResourcePath(["c", "d", "e", "f"]))
        #expect(DatabaseID(project: "p", database: "named").name == "projects/p/databases/named")
        // The root matched byte by byte: a longer id, a missing or extra piece is another database.
        #expect(try db.path(fromName: db.documentsRoot + "/") == ResourcePath([]))
        #expect(try db.path(fromName: db.documentsRoot + "/é/ü") == ResourcePath(["é", "ü"]))
        for other in [
            "projects/demo-pp/databases/(default)/documents/c", "projects/demo/databases/(default)/documents/c",
            "projects/demo-p/databases/(default)/documentsX", "projects/demo-p/databases/(default)", "projects/demo-p/databases/other/documents",
            "projects/demo-p", "", "/projects/demo-p/databases/(default)/documents",
        ] {
            #expect(throws: FirestoreError.self, "\(other)") { try db.path(fromName: other) }
        }
        #expect(ResourcePath(relative: "a//b/").segments == ["a", "", "b", ""])
    }

    @Test(arguments: [
        "projects/other/databases/(default)/documents/c/d", "projects/demo-p/databases/(default)/documentsX/c/d",
        "projects/demo-p/databases/(default)/documents/c", "projects/demo-p/databases/(default)/documents/c//d/e",
        "projects/demo-p/databases/(default)/documents/c/__x__", "c/d", "",
    ])
    func badDocumentNames(_ name: String) {
        #expect(throws: FirestoreError.self) { try db.documentPath(fromName: name) }
    }
}
