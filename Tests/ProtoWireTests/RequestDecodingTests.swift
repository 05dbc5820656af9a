import FirestoreRPC
import FirestoreModel
import Testing

@testable import ProtoWire

@Suite("Other requests")
struct RequestDecodingTests {
    static let readTimeTS = Fx.message { w in
        w.writeInt64Field(1, Fx.ts.seconds)
        w.writeInt32Field(2, Fx.ts.nanos)
    }

    @Test func getDocument() throws {
        let bytes = Fx.message { w in
            w.writeStringField(1, Fx.name("users/alice"))
            w.writeMessageField(2) { m in
                m.writeStringField(1, "name")
                m.writeStringField(1, "`a.b`.c")
            }
            w.writeBytesField(5, Self.readTimeTS)
        }
        #expect(
            try GetDocumentRequest(serializedBytes: bytes)
                == GetDocumentRequest(
                    database: Fx.db, path: Fx.path("users/alice"), mask: [FieldPath(["name"]), FieldPath(["a.b", "c"])],
                    consistency: .readTime(Fx.ts)))
        let inTransaction = Fx.message { w in
            w.writeStringField(1, Fx.name("users/alice"))
            w.writeBytesField(3, [1, 2])
        }
        #expect(try GetDocumentRequest(serializedBytes: inTransaction).consistency == .transaction([1, 2]))
        // The database comes from the name itself, named databases included.
        let named = Fx.message { $0.writeStringField(1, "projects/p/databases/db-2/documents/a/b") }
        #expect(try GetDocumentRequest(serializedBytes: named).database == DatabaseID(project: "p", database: "db-2"))
        #expect(throws: FirestoreError.invalidArgument("Invalid GetDocumentRequest at name: a document name is required.")) {
            try GetDocumentRequest(serializedBytes: [])
        }
        #expect(throws: FirestoreError.self) {
            try GetDocumentRequest(serializedBytes: Fx.message { $0.writeStringField(1, Fx.docs) })
        }
    }

    @Test func pythonListDocuments() throws {
        let request = try ListDocumentsRequest(serializedBytes: Hex.bytes(PythonFixtures.listDocuments))
        #expect(
            request
                == ListDocumentsRequest(
                    database: Fx.db, parent: .root, collectionID: "users", pageSize: 50, mask: [], showMissing: true))
        #expect(request.collection == Fx.path("users"))
        let page = Fx.message { w in
            w.writeStringField(1, Fx.name("rooms/r1"))
            w.writeStringField(2, "msgs")
            w.writeStringField(4, "tok")
            w.writeStringField(6, "__name__")
            w.writeBytesField(8, [9])
        }
        let decoded = try ListDocumentsRequest(serializedBytes: page)
        #expect(decoded.collection == Fx.path("rooms/r1/msgs"))
        #expect(decoded.pageToken == "tok" && decoded.orderBy == "__name__" && decoded.mask == nil)
        #expect(decoded.consistency == .transaction([9]))
    }

    @Test func createUpdateDelete() throws {
        let create = Fx.message { w in
            w.writeStringField(1, Fx.docs)
            w.writeStringField(2, "users")
            w.writeStringField(3, "zed")
            w.writeMessageField(4) { d in
                d.writeMessageField(2) { e in
                    e.writeStringField(1, "n")
                    e.writeMessageField(2) { $0.writeInt64Field(2, 0) }
                }
            }
        }
        #expect(
            try CreateDocumentRequest(serializedBytes: create)
                == CreateDocumentRequest(
                    database: Fx.db, parent: .root, collectionID: "users", documentID: "zed", fields: ["n": .integer(0)]))

        let update = Fx.message { w in
            w.writeMessageField(1) { d in
                d.writeStringField(1, Fx.name("users/zed"))
                d.writeMessageField(3) { $0.writeInt64Field(1, 5) }  // create_time is output only: ignored
            }
            w.writeMessageField(2) { _ in }
            w.writeMessageField(4) { $0.writeBoolField(1, true) }
        }
        let decoded = try UpdateDocumentRequest(serializedBytes: update)
        #expect(
            decoded.write
                == Write(operation: .update(path: Fx.path("users/zed"), fields: [:]), updateMask: [], currentDocument: .exists(true)))
        #expect(throws: FirestoreError.invalidArgument("Invalid UpdateDocumentRequest at document: document is required.")) {
            try UpdateDocumentRequest(serializedBytes: [])
        }

        let delete = Fx.message { w in
            w.writeStringField(1, Fx.name("users/zed"))
            w.writeMessageField(2) { $0.writeBoolField(1, false) }  // exists=false written although default (oneof)
        }
        #expect(try DeleteDocumentRequest(serializedBytes: delete).write
            == Write(operation: .delete(Fx.path("users/zed")), currentDocument: .exists(false)))
        #expect(Hex.string(Array(delete.suffix(4))) == "12 02 08 00")
    }

    @Test func pythonBatchGetWithNewTransaction() throws {
        #expect(
            try BatchGetDocumentsRequest(serializedBytes: Hex.bytes(PythonFixtures.batchGet))
                == BatchGetDocumentsRequest(
                    database: Fx.db, paths: [Fx.path("users/alice"), Fx.path("users/bob")], mask: [FieldPath(["name"])],
                    consistency: .newTransaction(.readWrite(retryTransaction: Array("old".utf8)))))
        let badName = Fx.message { w in
            w.writeStringField(2, Fx.name("a/b"))
            w.writeStringField(2, Fx.name("a"))
            w.writeStringField(1, Fx.dbName)
        }
        #expect(
            throws: FirestoreError.invalidArgument(
                "Invalid BatchGetDocumentsRequest at documents[1]: Document name \"\(Fx.name("a"))\" has odd number of segments.")
        ) { try BatchGetDocumentsRequest(serializedBytes: badName) }
    }

    @Test func transactionsBeginAndRollback() throws {
        #expect(
            try BeginTransactionRequest(serializedBytes: Hex.bytes(PythonFixtures.beginTransactionReadOnly))
                == BeginTransactionRequest(database: Fx.db, options: .readOnly(readTime: Fx.ts)))
        // Absent options and an empty options message both mean read-write.
        let plain = Fx.message { $0.writeStringField(1, Fx.dbName) }
        #expect(try BeginTransactionRequest(serializedBytes: plain).options == .readWrite(retryTransaction: nil))
        let empty = plain + Fx.message { $0.writeMessageField(2) { _ in } }
        #expect(try BeginTransactionRequest(serializedBytes: empty).options == .readWrite(retryTransaction: nil))
        let readOnlyNow = plain + Fx.message { $0.writeMessageField(2) { $0.writeMessageField(2) { _ in } } }
        #expect(try BeginTransactionRequest(serializedBytes: readOnlyNow).options == .readOnly(readTime: nil))

        let rollback = plain + Fx.message { $0.writeBytesField(2, [7, 7]) }
        #expect(try RollbackRequest(serializedBytes: rollback) == RollbackRequest(database: Fx.db, transaction: [7, 7]))
    }

    @Test func partitionQueryAndListCollectionIds() throws {
        let partition = Fx.message { w in
            w.writeStringField(1, Fx.docs)
            w.writeMessageField(2) { q in
                q.writeMessageField(2) { s in
                    s.writeStringField(2, "c")
                    s.writeBoolField(3, true)
                }
            }
            w.writeInt64Field(3, 16)
            w.writeStringField(4, "p")
            w.writeInt32Field(5, 10)
            w.writeBytesField(6, Self.readTimeTS)
        }
        #expect(
            try PartitionQueryRequest(serializedBytes: partition)
                == PartitionQueryRequest(
                    database: Fx.db, target: QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", allDescendants: true)),
                    partitionCount: 16, pageToken: "p", pageSize: 10, readTime: Fx.ts))

        let list = Fx.message { w in
            w.writeStringField(1, Fx.name("rooms/r1"))
            w.writeInt32Field(2, 100)
            w.writeStringField(3, "t")
        }
        #expect(
            try ListCollectionIdsRequest(serializedBytes: list)
                == ListCollectionIdsRequest(database: Fx.db, parent: Fx.path("rooms/r1"), pageSize: 100, pageToken: "t"))
    }

    @Test func batchWriteWithLabels() throws {
        let bytes = Fx.message { w in
            w.writeStringField(1, Fx.dbName)
            w.writeMessageField(2) { $0.writeStringField(2, Fx.name("a/b")) }
            w.writeMessageField(3) { e in
                e.writeStringField(1, "k")
                e.writeStringField(2, "v")
            }
        }
        #expect(
            try BatchWriteRequest(serializedBytes: bytes)
                == BatchWriteRequest(database: Fx.db, writes: [Write(operation: .delete(Fx.path("a/b")))], labels: ["k": "v"]))
    }

    @Test func pythonWriteStream() throws {
        let handshake = try WriteRequest(serializedBytes: Hex.bytes(PythonFixtures.writeHandshake), streamDatabase: nil)
        #expect(handshake == WriteRequest(database: Fx.db))
        // Later messages have no database: the stream's is used.
        let batchBytes = Hex.bytes(PythonFixtures.writeBatch)
        let batch = try WriteRequest(serializedBytes: batchBytes, streamDatabase: handshake.database)
        #expect(
            batch
                == WriteRequest(
                    writes: [
                        Write(
                            operation: .update(path: Fx.path("users/alice"), fields: [:]), updateMask: [],
                            updateTransforms: [FieldTransform(fieldPath: FieldPath(["visits"]), operation: .increment(.integer(1)))],
                            currentDocument: .exists(true))
                    ], streamToken: Array("tok-1".utf8)))
        #expect(
            throws: FirestoreError.invalidArgument(
                "Invalid WriteRequest at database: database is required in the first message of the stream.")
        ) { try WriteRequest(serializedBytes: batchBytes, streamDatabase: nil) }
        // The teardown message: only the token.
        let teardown = Fx.message { $0.writeBytesField(4, [1]) }
        #expect(try WriteRequest(serializedBytes: teardown, streamDatabase: nil) == WriteRequest(streamToken: [1]))
    }

    @Test func namesAndParents() throws {
        #expect(try FirestoreProto.databaseID(fromName: "projects/p/databases/(default)") == DatabaseID(project: "p"))
        #expect(try FirestoreProto.parseParent(Fx.docs) == (Fx.db, .root))
        #expect(try FirestoreProto.parseParent(Fx.name("a/b/c")) == (Fx.db, Fx.path("a/b/c")))
        #expect(try FirestoreProto.parseDocumentName(Fx.name("a/b")) == (Fx.db, Fx.path("a/b")))
        for bad in ["", "projects/p", "projects/p/databases/", "projects//databases/d", "x/p/databases/d", "projects/p/databases/d/extra"] {
            #expect(throws: FirestoreError.self) { try FirestoreProto.databaseID(fromName: bad) }
        }
        for bad in [Fx.dbName, Fx.dbName + "/documentz", Fx.docs + "/", Fx.docs + "/a//b", Fx.docs + "/__x__/y"] {
            #expect(throws: FirestoreError.self) { try FirestoreProto.parseParent(bad) }
        }
        #expect(throws: FirestoreError.self) { try FirestoreProto.parseDocumentName(Fx.name("a")) }
    }
}
