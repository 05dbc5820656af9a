import FirestoreRPC
import FirestoreModel
import Testing

@testable import ProtoWire

@Suite("CommitRequest and Write")
struct CommitRequestTests {
    /// The Commit of docs/reference/grpc-and-listen.md §1.4 (Python `set()` with a SERVER_TIMESTAMP), transcribed.
    /// The reference annotates the lengths (writes LEN 169, update LEN 158) and every value
    /// but not the field names; six names totalling 14 bytes keep those lengths exact.
    static let referenceCommit = Hex.bytes(
        """
        0a 26 "projects/demo-proj/databases/(default)"
        12 a9 01
          0a 9e 01
            0a 3c "projects/demo-proj/databases/(default)/documents/users/alice"
            12 0e 0a 01 "f" 12 09 19 00 00 00 00 00 00 f8 3f
            12 09 0a 03 "age" 12 02 10 1e
            12 10 0a 04 "name" 12 08 8a 01 05 "Alice"
            12 07 0a 01 "z" 12 02 58 00
            12 16 0a 04 "tags" 12 0e 4a 0c 0a 04 8a 01 01 61 0a 04 8a 01 01 62
            12 10 0a 01 "m" 12 0b 32 09 0a 07 0a 01 78 12 02 58 00
          3a 06 0a 02 "ts" 10 01
        """)

    @Test func referenceCommitDecodesToTheExpectedWrite() throws {
        #expect(Self.referenceCommit.count == 2 + 38 + 3 + 169)
        let request = try CommitRequest(serializedBytes: Self.referenceCommit)
        let expected = Write(
            operation: .update(
                path: Fx.path("users/alice"),
                fields: [
                    "f": .double(1.5), "age": .integer(30), "name": .string("Alice"), "z": .null,
                    "tags": .array([.string("a"), .string("b")]), "m": .map(["x": .null]),
                ]),
            updateTransforms: [FieldTransform(fieldPath: FieldPath(["ts"]), operation: .serverTimestamp)])
        #expect(request == CommitRequest(database: Fx.db, writes: [expected], transaction: nil))
    }

    @Test func pythonSetWithServerTimestamp() throws {
        let request = try CommitRequest(serializedBytes: Hex.bytes(PythonFixtures.commitSet))
        #expect(request.database == Fx.db)
        #expect(request.transaction == nil)
        #expect(
            request.writes == [
                Write(
                    operation: .update(
                        path: Fx.path("users/alice"),
                        fields: [
                            "score": .double(1.5), "age": .integer(30), "name": .string("Alice"), "nothing": .null,
                            "tags": .array([.string("a"), .string("b")]), "nested": .map(["x": .null]),
                        ]),
                    updateTransforms: [FieldTransform(fieldPath: FieldPath(["ts"]), operation: .serverTimestamp)])
            ])
    }

    @Test func pythonMixedBatchInATransaction() throws {
        let request = try CommitRequest(serializedBytes: Hex.bytes(PythonFixtures.commitMixed))
        #expect(request.transaction == Array("tx-1".utf8))
        let expected: [Write] = [
            // create(): exists=false, defaults kept as oneof arms.
            Write(
                operation: .update(
                    path: Fx.path("users/bob"), fields: ["n": .integer(0), "flag": .boolean(false), "empty": .string("")]),
                currentDocument: .exists(false)),
            // update() with dotted and quoted paths: a mask and exists=true.
            Write(
                operation: .update(
                    path: Fx.path("users/carol"),
                    fields: ["a": .map(["b": .integer(1)]), "x y": .map(["z": .string("q")])]),
                updateMask: [FieldPath(["a", "b"]), FieldPath(["x y", "z"])], currentDocument: .exists(true)),
            // update() whose only entry is a transform: a present but empty mask.
            Write(
                operation: .update(path: Fx.path("users/dave"), fields: [:]), updateMask: [],
                updateTransforms: [FieldTransform(fieldPath: FieldPath(["visits"]), operation: .increment(.integer(1)))],
                currentDocument: .exists(true)),
            Write(operation: .delete(Fx.path("users/erin")), currentDocument: .updateTime(Fx.ts)),
            // set(merge=True) with every other transform.
            Write(
                operation: .update(path: Fx.path("users/frank"), fields: ["m": .map(["k": .integer(2)])]),
                updateMask: [FieldPath(["m", "k"])],
                updateTransforms: [
                    FieldTransform(fieldPath: FieldPath(["add"]), operation: .appendMissingElements([.integer(1), .string("x")])),
                    FieldTransform(fieldPath: FieldPath(["hi"]), operation: .maximum(.integer(5))),
                    FieldTransform(fieldPath: FieldPath(["lo"]), operation: .minimum(.double(-2.5))),
                    FieldTransform(fieldPath: FieldPath(["rm"]), operation: .removeAllFromArray([.null])),
                ]),
        ]
        #expect(request.writes.count == expected.count)
        for (got, want) in zip(request.writes, expected) { #expect(got == want) }
    }

    /// Builds a CommitRequest holding one hand-made Write body.
    static func commit(write: [UInt8], database: String = Fx.dbName) -> [UInt8] {
        Fx.message { w in
            w.writeStringField(1, database)
            w.writeBytesField(2, write)
        }
    }

    @Test func verifyDeleteAndLegacyTransform() throws {
        let verify = Fx.message { w in
            w.writeStringField(5, Fx.name("rooms/r1"))
            w.writeMessageField(4) { $0.writeMessageField(2) { $0.writeInt64Field(1, 7) } }
        }
        let transform = Fx.message { w in
            w.writeMessageField(6) { t in
                t.writeStringField(1, Fx.name("rooms/r2"))
                t.writeMessageField(2) { f in
                    f.writeStringField(1, "n")
                    f.writeMessageField(3) { $0.writeInt64Field(2, 2) }
                }
            }
        }
        let bytes = Fx.message { w in
            w.writeBytesField(2, verify)  // writes before database: order on the wire is free
            w.writeBytesField(2, transform)
            w.writeStringField(1, Fx.dbName)
            w.writeBytesField(3, [])  // empty transaction = none
        }
        let request = try CommitRequest(serializedBytes: bytes)
        #expect(
            request.writes == [
                Write(operation: .verify(Fx.path("rooms/r1")), currentDocument: .updateTime(Timestamp(seconds: 7, nanos: 0))),
                Write(
                    operation: .transform(Fx.path("rooms/r2")),
                    updateTransforms: [FieldTransform(fieldPath: FieldPath(["n"]), operation: .increment(.integer(2)))]),
            ])
        #expect(request.transaction == nil)
    }

    @Test func emptyPreconditionIsNone() throws {
        let write = Fx.message { w in
            w.writeStringField(2, Fx.name("a/b"))
            w.writeMessageField(4) { _ in }
        }
        let request = try CommitRequest(serializedBytes: Self.commit(write: write))
        #expect(request.writes == [Write(operation: .delete(Fx.path("a/b")))])
    }

    @Test func unknownFieldsAreSkipped() throws {
        let write = Fx.message { w in
            w.writeStringField(2, Fx.name("a/b"))
            w.writeUInt64Field(99, 1)
            w.writeFixed32Field(100, 5)
            w.writeDoubleField(101, 2)
        }
        let bytes = Self.commit(write: write) + Fx.message { $0.writeMessageField(10) { $0.writeStringField(1, "tag") } }
        #expect(try CommitRequest(serializedBytes: bytes).writes.count == 1)
    }

    /// Errors name the message and the field path (reference: decoding errors are INVALID_ARGUMENT).
    @Test(arguments: [
        (Fx.message { $0.writeStringField(2, "projects/other/databases/(default)/documents/a/b") },
         "Invalid CommitRequest at writes[0].delete: Name \"projects/other/databases/(default)/documents/a/b\" is not in database \"projects/demo-proj/databases/(default)\"."),
        (Fx.message { $0.writeStringField(2, Fx.name("a")) },
         "Invalid CommitRequest at writes[0].delete: Document name \"\(Fx.name("a"))\" has odd number of segments."),
        (Fx.message { $0.writeMessageField(4) { _ in } },
         "Invalid CommitRequest at writes[0]: a write must set one of update, delete, verify or transform."),
        (Fx.message { $0.writeMessageField(1) { $0.writeStringField(1, "") } },
         "Invalid CommitRequest at writes[0].update.name: a document name is required."),
        (Fx.message { w in
            w.writeStringField(2, Fx.name("a/b"))
            w.writeMessageField(3) { _ in }
        }, "Invalid CommitRequest at writes[0]: update_mask is only allowed with update."),
        (Fx.message { w in
            w.writeMessageField(1) { $0.writeStringField(1, Fx.name("a/b")) }
            w.writeMessageField(3) { $0.writeStringField(1, "a..b") }
        }, "Invalid CommitRequest at writes[0].update_mask.field_paths[0]: Invalid field path: a..b"),
        (Fx.message { w in
            w.writeMessageField(1) { $0.writeStringField(1, Fx.name("a/b")) }
            w.writeMessageField(7) { t in
                t.writeStringField(1, "n")
                t.writeInt32Field(2, 0)
            }
        }, "Invalid CommitRequest at writes[0].update_transforms[0].set_to_server_value: set_to_server_value must be REQUEST_TIME (1); got 0."),
        (Fx.message { w in
            w.writeMessageField(1) { $0.writeStringField(1, Fx.name("a/b")) }
            w.writeMessageField(7) { $0.writeStringField(1, "n") }
        }, "Invalid CommitRequest at writes[0].update_transforms[0]: a field transform must set one transform_type."),
        (Fx.message { w in
            w.writeMessageField(1) { d in
                d.writeStringField(1, Fx.name("a/b"))
                d.writeMessageField(2) { e in
                    e.writeStringField(1, "k")
                    e.writeMessageField(2) { _ in }
                }
            }
        }, "Invalid CommitRequest at writes[0].update.fields.k: Value has no value_type set."),
    ])
    func errorsNameTheField(write: [UInt8], message: String) {
        #expect(throws: FirestoreError.invalidArgument(message)) {
            try CommitRequest(serializedBytes: Self.commit(write: write))
        }
    }

    @Test func missingOrMalformedDatabase() {
        #expect(throws: FirestoreError.invalidArgument("Invalid CommitRequest at database: database is required.")) {
            try CommitRequest(serializedBytes: [])
        }
        #expect(throws: FirestoreError.self) {
            try CommitRequest(serializedBytes: Fx.message { $0.writeStringField(1, "projects/p") })
        }
        #expect(throws: FirestoreError.self) {
            try CommitRequest(serializedBytes: Fx.message { $0.writeStringField(1, "projects//databases/d") })
        }
    }

    @Test func wireErrorsInsideAWriteNameTheWrite() {
        // writes[1] claims 10 bytes but the message ends: a truncation inside the request.
        let bytes = Fx.message { w in
            w.writeStringField(1, Fx.dbName)
            w.writeBytesField(2, Fx.message { $0.writeStringField(2, Fx.name("a/b")) })
        } + [0x12, 0x0A, 0x12]
        #expect(throws: FirestoreError.invalidArgument("Invalid CommitRequest at writes[1]: length 10 exceeds the 1 bytes left (byte 97)")) {
            try CommitRequest(serializedBytes: bytes)
        }
    }
}
