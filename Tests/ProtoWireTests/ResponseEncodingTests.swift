import FirestoreRPC
import FirestoreModel
import Testing

@testable import ProtoWire

@Suite("Response encoding")
struct ResponseEncodingTests {
    static func same(_ bytes: [UInt8], _ hex: String) -> Bool { Hex.string(bytes) == Hex.string(Hex.bytes(hex)) }

    @Test func runQueryResponses() {
        let document = RunQueryResponse(document: Fx.alice, readTime: Fx.ts, skippedResults: 2)
        #expect(Self.same(document.serializedBytes(database: Fx.db), PythonFixtures.runQueryDocument))
        let done = RunQueryResponse(document: nil, transaction: Array("tx".utf8), readTime: Fx.ts, done: true)
        #expect(Self.same(done.serializedBytes(database: Fx.db), PythonFixtures.runQueryDone))
        // An empty result: only read_time.
        #expect(Self.same(RunQueryResponse(document: nil, readTime: Fx.ts).serializedBytes(database: Fx.db),
                          "1a 0c " + ListenTests.tsBytes))
    }

    @Test func batchGetResponses() {
        let missing = BatchGetDocumentsResponse(result: .missing(Fx.path("users/bob")), readTime: Fx.ts)
        #expect(Self.same(missing.serializedBytes(database: Fx.db), PythonFixtures.batchGetMissing))
        let found = BatchGetDocumentsResponse(result: .found(Fx.alice), transaction: Array("tx".utf8), readTime: Fx.ts)
        #expect(Self.same(found.serializedBytes(database: Fx.db), PythonFixtures.batchGetFound))
    }

    @Test func commitAndWriteStreamResponses() {
        let commit = CommitResponse(
            writeResults: [
                WriteResult(updateTime: Fx.ts2, transformResults: [.timestamp(Fx.ts2), .null]), WriteResult(updateTime: nil),
            ], commitTime: Fx.ts2)
        #expect(Self.same(commit.serializedBytes(), PythonFixtures.commitResponse))
        let handshake = WriteResponse(streamID: "s1", streamToken: [1])
        #expect(Self.same(handshake.serializedBytes(), PythonFixtures.writeResponseHandshake))
        let batch = WriteResponse(streamToken: [2], writeResults: [WriteResult(updateTime: nil)], commitTime: Fx.ts2)
        #expect(Self.same(batch.serializedBytes(), "12 01 02 1a 00 22 0b 08 81 e2 cf aa 06 10 80 94 ef 3a"))
    }

    @Test func batchWriteResponseAlignsResultsAndStatuses() {
        let response = BatchWriteResponse(results: [
            .success(WriteResult(updateTime: Fx.ts2)), .failure(FirestoreError(.alreadyExists, "exists")),
        ])
        #expect(Self.same(response.serializedBytes(), PythonFixtures.batchWriteResponse))
    }

    @Test func aggregationPartitionAndListResponses() {
        let aggregation = RunAggregationQueryResponse(
            aggregateFields: ["mean": .null, "c": .integer(0), "field_1": .double(2.5)], readTime: Fx.ts)
        #expect(Self.same(aggregation.serializedBytes(), PythonFixtures.aggregationResponse))
        let partition = PartitionQueryResponse(partitions: [Cursor(values: [.reference(Fx.name("users/m"))], before: false)])
        #expect(Self.same(partition.serializedBytes(), PythonFixtures.partitionQueryResponse))
        #expect(PartitionQueryResponse().serializedBytes() == [])
        let list = ListDocumentsResponse(documents: [.document(Fx.alice), .missing(Fx.path("users/ghost"))], nextPageToken: "p2")
        #expect(Self.same(list.serializedBytes(database: Fx.db), PythonFixtures.listDocumentsResponse))
        let ids = ListCollectionIdsResponse(collectionIDs: ["a", "b"], nextPageToken: "n")
        #expect(Self.same(ids.serializedBytes(), "0a 01 \"a\" 0a 01 \"b\" 12 01 \"n\""))
    }

    @Test func smallMessages() {
        #expect(BeginTransactionResponse(transaction: [0xAB]).serializedBytes() == [0x0A, 0x01, 0xAB])
        #expect(FirestoreProto.serializedEmpty.isEmpty)
        #expect(Self.same(FirestoreProto.serializedStatus(.notFound("nope")), "08 05 12 04 \"nope\""))
        // The Document message alone equals the `found` Document inside Python's BatchGet response.
        var r = ProtoReader(Hex.bytes(PythonFixtures.batchGetFound))
        #expect((try? r.readTag()) == ProtoTag(fieldNumber: 1, wireType: .len))
        let inner = (try? r.readLengthDelimited()).map(Array.init) ?? []
        #expect(FirestoreProto.serializedDocument(Fx.alice, database: Fx.db) == inner)
        #expect(!inner.isEmpty)
    }
}
