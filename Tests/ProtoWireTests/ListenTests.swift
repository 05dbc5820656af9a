import FirestoreRPC
import FirestoreModel
import Testing

@testable import ProtoWire

@Suite("Listen: ListenRequest and ListenResponse")
struct ListenTests {
    // MARK: requests

    @Test func pythonAddQueryTargetWithResumeToken() throws {
        let request = try ListenRequest(serializedBytes: Hex.bytes(PythonFixtures.listenAddQuery))
        let query = StructuredQuery(
            collectionID: "users", filter: .field(Fx.field("age"), .greaterThanOrEqual, .integer(18)), orderBy: [Order(Fx.field("age"))])
        #expect(
            request
                == ListenRequest(
                    database: Fx.db,
                    targetChange: .addTarget(
                        Target(
                            targetID: 0x5079, targetType: .query(QueryTarget(parent: .root, query: query)),
                            resumeType: .resumeToken(Array("rt-1".utf8))))))
    }

    @Test func pythonAddDocumentsTargetAsMobileSendsIt() throws {
        let request = try ListenRequest(serializedBytes: Hex.bytes(PythonFixtures.listenAddDocuments))
        #expect(request.labels == ["goog-listen-tags": "existence-filter-mismatch"])
        #expect(
            request.targetChange
                == .addTarget(
                    Target(
                        targetID: 2, targetType: .documents([Fx.path("rooms/r1")]), resumeType: .readTime(Fx.ts), once: true,
                        expectedCount: 1)))
    }

    @Test func pythonRemoveTarget() throws {
        let request = try ListenRequest(serializedBytes: Hex.bytes(PythonFixtures.listenRemove))
        #expect(request == ListenRequest(database: Fx.db, targetChange: .removeTarget(2)))
    }

    @Test func handComputedRequestBytes() throws {
        let add = Hex.bytes(
            """
            0a 26 "projects/demo-proj/databases/(default)"
            12 3f
              1a 3b 12 39 "projects/demo-proj/databases/(default)/documents/rooms/r1"
              28 02
            """)
        #expect(
            try ListenRequest(serializedBytes: add).targetChange
                == .addTarget(Target(targetID: 2, targetType: .documents([Fx.path("rooms/r1")]))))
        let remove = Hex.bytes("0a 26 \"projects/demo-proj/databases/(default)\" 18 02")
        #expect(try ListenRequest(serializedBytes: remove).targetChange == .removeTarget(2))
        // Negative target ids arrive as 10-byte varints and are truncated to int32.
        let negative = Hex.bytes("18 fe ff ff ff ff ff ff ff ff 01")
        #expect(try ListenRequest(serializedBytes: negative).targetChange == .removeTarget(-2))
    }

    /// A ListenRequest whose add_target body `target` writes.
    static func add(database: String? = Fx.dbName, _ target: (inout ProtoWriter) -> Void) -> [UInt8] {
        Fx.message { w in
            if let database { w.writeStringField(1, database) }
            w.writeMessageField(2, target)
        }
    }

    static func documents(_ names: [String]) -> (inout ProtoWriter) -> Void {
        { w in
            w.writeMessageField(3) { d in for n in names { d.writeStringField(2, n) } }
            w.writeInt32Field(5, 7)
        }
    }

    @Test func unusableTargetsAreRejectedWithTheirIDNotThrown() throws {
        func rejection(_ bytes: [UInt8]) throws -> (Int32, FirestoreError)? {
            let request = try ListenRequest(serializedBytes: bytes)
            if case .rejectedTarget(let id, let error) = request.targetChange { return (id, error) }
            return nil
        }
        let pipeline = try rejection(Self.add { w in
            w.writeInt32Field(5, 9)
            w.writeMessageField(13) { _ in }
        })
        #expect(pipeline?.0 == 9)
        #expect(pipeline?.1.code == .unimplemented)

        let otherDatabase = try rejection(Self.add(Self.documents(["projects/x/databases/(default)/documents/a/b"])))
        #expect(otherDatabase?.0 == 7)
        #expect(otherDatabase?.1.code == .invalidArgument)
        #expect(otherDatabase?.1.message.hasPrefix("Invalid ListenRequest at add_target.documents.documents[0]: ") == true)

        let badQuery = try rejection(Self.add { w in
            w.writeMessageField(2) { q in
                q.writeStringField(1, Fx.docs)
                q.writeMessageField(2) { $0.writeMessageField(4) { _ in } }
            }
            w.writeInt32Field(5, 3)
        })
        #expect(badQuery?.0 == 3)
        #expect(
            badQuery?.1
                == .invalidArgument("Invalid ListenRequest at add_target.query.structured_query.order_by[0].field: an order needs a field."))

        let noType = try rejection(Self.add { $0.writeInt32Field(5, 4) })
        #expect(noType?.0 == 4)
        #expect(noType?.1 == .invalidArgument("Invalid ListenRequest at add_target: a target must set query or documents."))

        let queryParentElsewhere = try rejection(Self.add { w in
            w.writeMessageField(2) { q in
                q.writeStringField(1, "projects/x/databases/(default)/documents")
                q.writeMessageField(2) { $0.writeMessageField(2) { $0.writeStringField(2, "c") } }
            }
        })
        #expect(queryParentElsewhere?.0 == 0)
        #expect(queryParentElsewhere?.1.message.contains("add_target.query.parent") == true)
    }

    @Test func wireErrorsInsideAddTargetFailTheRequest() {
        // add_target holds a truncated varint (target_id): not a per-target problem.
        let bytes = Fx.message { w in
            w.writeStringField(1, Fx.dbName)
            w.writeBytesField(2, [0x28, 0x96])
        }
        #expect(throws: FirestoreError.self) { try ListenRequest(serializedBytes: bytes) }
    }

    @Test func databaseFallsBackToTheStream() throws {
        let bytes = Self.add(database: nil, Self.documents([Fx.name("a/b")]))
        #expect(throws: FirestoreError.invalidArgument("Invalid ListenRequest at database: database is required.")) {
            try ListenRequest(serializedBytes: bytes)
        }
        let request = try ListenRequest(serializedBytes: bytes, streamDatabase: Fx.db)
        #expect(request.database == nil)
        #expect(request.targetChange == .addTarget(Target(targetID: 7, targetType: .documents([Fx.path("a/b")]))))
        // A message with neither arm (labels only) decodes with no target change.
        #expect(try ListenRequest(serializedBytes: []).targetChange == nil)
    }

    // MARK: responses

    static let tsBytes = "08 80 e2 cf aa 06 10 80 ca b5 ee 01"

    @Test func targetChangesMatchTheReferenceBytes() {
        // docs/reference/grpc-and-listen.md §1.4: the ADD / CURRENT / global NO_CHANGE accepted by grpc-core clients.
        let add = ListenResponse.targetChange(.init(.add, targetIDs: [20601]))
        #expect(Hex.string(add.serializedBytes(database: Fx.db)) == Hex.string(Hex.bytes("12 07 08 01 12 03 f9 a0 01")))
        let current = ListenResponse.targetChange(
            .init(.current, targetIDs: [20601], resumeToken: Array("rt-1".utf8), readTime: Fx.ts))
        #expect(
            Hex.string(current.serializedBytes(database: Fx.db))
                == Hex.string(Hex.bytes("12 1b 08 03 12 03 f9 a0 01 22 04 \"rt-1\" 32 0c " + Self.tsBytes)))
        let global = ListenResponse.targetChange(.init(.noChange, resumeToken: Array("rt-1".utf8), readTime: Fx.ts))
        #expect(
            Hex.string(global.serializedBytes(database: Fx.db))
                == Hex.string(Hex.bytes("12 14 22 04 \"rt-1\" 32 0c " + Self.tsBytes)))
    }

    @Test(arguments: [
        (ListenResponse.targetChange(.init(.add, targetIDs: [20601])), PythonFixtures.listenAdd),
        (.targetChange(.init(.current, targetIDs: [20601], resumeToken: Array("rt-1".utf8), readTime: Fx.ts)), PythonFixtures.listenCurrent),
        (.targetChange(.init(.noChange, resumeToken: Array("rt-1".utf8), readTime: Fx.ts)), PythonFixtures.listenGlobalNoChange),
        (.targetChange(.init(.remove, targetIDs: [3], cause: .permissionDenied("denied"))), PythonFixtures.listenRemoveWithCause),
        (.documentChange(Fx.alice, targetIDs: [1, 2], removedTargetIDs: [3]), PythonFixtures.listenDocumentChange),
        (.documentDelete(Fx.path("users/bob"), removedTargetIDs: [1], readTime: Fx.ts), PythonFixtures.listenDocumentDelete),
        (.documentRemove(Fx.path("users/bob"), removedTargetIDs: [1, 20601], readTime: Fx.ts), PythonFixtures.listenDocumentRemove),
        (.filter(.init(targetID: 2, count: 3, unchangedNames: .init(bitmap: [0x0F, 0xF0], padding: 4, hashCount: 7))),
         PythonFixtures.listenFilter),
    ])
    func responsesMatchPython(response: ListenResponse, hex: String) {
        #expect(Hex.string(response.serializedBytes(database: Fx.db)) == Hex.string(Hex.bytes(hex)))
    }

    @Test func resetAndEmptyExistenceFilter() {
        #expect(
            ListenResponse.targetChange(.init(.reset, targetIDs: [-1])).serializedBytes(database: Fx.db)
                == Hex.bytes("12 0e 08 04 12 0a ff ff ff ff ff ff ff ff ff 01"))
        // target 0 / count 0 are proto3 defaults: an empty filter message.
        #expect(ListenResponse.filter(.init(targetID: 0, count: 0)).serializedBytes(database: Fx.db) == Hex.bytes("2a 00"))
    }
}
