import FirestoreRPC
import DeterministicRandom
import FirestoreModel
import Testing

@testable import ProtoWire

/// Robustness: malformed input must end in a typed error, never a trap (docs/STYLE.md principle 4).
@Suite("Fuzz and truncation")
struct FuzzTests {
    /// Every request decoder, by message name.
    static let decoders: [(String, @Sendable ([UInt8]) throws(FirestoreError) -> Void)] = [
        ("GetDocumentRequest", { (b) throws(FirestoreError) in _ = try GetDocumentRequest(serializedBytes: b) }),
        ("ListDocumentsRequest", { (b) throws(FirestoreError) in _ = try ListDocumentsRequest(serializedBytes: b) }),
        ("CreateDocumentRequest", { (b) throws(FirestoreError) in _ = try CreateDocumentRequest(serializedBytes: b) }),
        ("UpdateDocumentRequest", { (b) throws(FirestoreError) in _ = try UpdateDocumentRequest(serializedBytes: b) }),
        ("DeleteDocumentRequest", { (b) throws(FirestoreError) in _ = try DeleteDocumentRequest(serializedBytes: b) }),
        ("BatchGetDocumentsRequest", { (b) throws(FirestoreError) in _ = try BatchGetDocumentsRequest(serializedBytes: b) }),
        ("BeginTransactionRequest", { (b) throws(FirestoreError) in _ = try BeginTransactionRequest(serializedBytes: b) }),
        ("CommitRequest", { (b) throws(FirestoreError) in _ = try CommitRequest(serializedBytes: b) }),
        ("RollbackRequest", { (b) throws(FirestoreError) in _ = try RollbackRequest(serializedBytes: b) }),
        ("RunQueryRequest", { (b) throws(FirestoreError) in _ = try RunQueryRequest(serializedBytes: b) }),
        ("RunAggregationQueryRequest", { (b) throws(FirestoreError) in _ = try RunAggregationQueryRequest(serializedBytes: b) }),
        ("PartitionQueryRequest", { (b) throws(FirestoreError) in _ = try PartitionQueryRequest(serializedBytes: b) }),
        ("ListCollectionIdsRequest", { (b) throws(FirestoreError) in _ = try ListCollectionIdsRequest(serializedBytes: b) }),
        ("BatchWriteRequest", { (b) throws(FirestoreError) in _ = try BatchWriteRequest(serializedBytes: b) }),
        ("WriteRequest", { (b) throws(FirestoreError) in _ = try WriteRequest(serializedBytes: b, streamDatabase: Fx.db) }),
        ("ListenRequest", { (b) throws(FirestoreError) in _ = try ListenRequest(serializedBytes: b, streamDatabase: Fx.db) }),
        ("Value", { (b) throws(FirestoreError) in _ = try FirestoreProto.value(serializedBytes: b) }),
    ]

    /// Valid request fixtures and the decoder each belongs to.
    static let valid: [(String, [UInt8])] = [
        ("CommitRequest", Hex.bytes(PythonFixtures.commitSet)), ("CommitRequest", Hex.bytes(PythonFixtures.commitMixed)),
        ("CommitRequest", CommitRequestTests.referenceCommit), ("Value", Hex.bytes(PythonFixtures.valueEveryArm)),
        ("RunQueryRequest", Hex.bytes(PythonFixtures.runQueryEveryFilter)),
        ("RunQueryRequest", Hex.bytes(PythonFixtures.runQueryCollectionGroup)),
        ("RunAggregationQueryRequest", Hex.bytes(PythonFixtures.runAggregation)),
        ("RunQueryRequest", Hex.bytes(PythonExplainFixtures.runQueryExplainAnalyze)),
        ("RunAggregationQueryRequest", Hex.bytes(PythonExplainFixtures.runAggregationQueryExplainAnalyze)),
        ("ListenRequest", Hex.bytes(PythonFixtures.listenAddQuery)), ("ListenRequest", Hex.bytes(PythonFixtures.listenAddDocuments)),
        ("BatchGetDocumentsRequest", Hex.bytes(PythonFixtures.batchGet)),
        ("BeginTransactionRequest", Hex.bytes(PythonFixtures.beginTransactionReadOnly)),
        ("ListDocumentsRequest", Hex.bytes(PythonFixtures.listDocuments)), ("WriteRequest", Hex.bytes(PythonFixtures.writeBatch)),
    ]

    static func decoder(_ name: String) -> @Sendable ([UInt8]) throws(FirestoreError) -> Void {
        guard let d = decoders.first(where: { $0.0 == name }) else { preconditionFailure("no decoder \(name)") }
        return d.1
    }

    /// Runs `decode`; returns nil on success, else the error, which must be a decoding error.
    static func outcome(_ decode: ([UInt8]) throws(FirestoreError) -> Void, _ bytes: [UInt8]) -> FirestoreError? {
        do {
            try decode(bytes)
            return nil
        } catch {
            #expect(error.code == .invalidArgument || error.code == .unimplemented, "\(error)")
            return error
        }
    }

    @Test func validFixturesDecode() {
        for (name, bytes) in Self.valid { #expect(Self.outcome(Self.decoder(name), bytes) == nil, "\(name)") }
    }

    @Test func everyTruncationInsideAFieldIsAnError() throws {
        var checked = 0
        for (name, bytes) in Self.valid {
            let boundaries = try WireWalk.fieldBoundaries(bytes)
            for length in 0..<bytes.count {
                let prefix = Array(bytes[..<length])
                let error = Self.outcome(Self.decoder(name), prefix)
                if !boundaries.contains(length) {
                    #expect(error != nil, "\(name) truncated to \(length) bytes decoded")
                    #expect(throws: ProtoWireError.self) { try WireWalk.fieldBoundaries(prefix) }
                    checked += 1
                }
            }
        }
        #expect(checked > 2_000)
    }

    @Test func randomGarbageNeverTraps() {
        var rng = SplitMix64(seed: 0xF1E57)
        var errors = 0
        for i in 0..<10_000 {
            var bytes = rng.bytes(Int(rng.next() % 96))
            // Half the inputs start with a plausible LEN field so decoders get past the first tag.
            if i % 2 == 0 && bytes.count > 2 {
                bytes[0] = UInt8(truncatingIfNeeded: (rng.next() % 15 + 1) << 3 | 2)
                bytes[1] = UInt8(truncatingIfNeeded: rng.next() % UInt64(bytes.count - 1))
            }
            let (_, decode) = Self.decoders[i % Self.decoders.count]
            if Self.outcome(decode, bytes) != nil { errors += 1 }
            _ = try? WireWalk.deep(ProtoReader(bytes))
        }
        #expect(errors > 9_000)
    }

    @Test func mutatedValidMessagesNeverTrap() {
        var rng = SplitMix64(seed: 99)
        for i in 0..<3_000 {
            let (name, original) = Self.valid[i % Self.valid.count]
            var bytes = original
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: at)
                default: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
                }
                if bytes.isEmpty { bytes = [0] }
            }
            _ = Self.outcome(Self.decoder(name), bytes)
        }
    }

    @Test func framedGarbageThroughTheFramerAndDecoders() throws {
        // Whole pipeline: frame random payloads, split randomly, reassemble, decode.
        var rng = SplitMix64(seed: 5)
        var stream: [UInt8] = []
        var payloads: [[UInt8]] = []
        for _ in 0..<200 {
            let p = rng.bytes(Int(rng.next() % 300))
            payloads.append(p)
            GRPCMessageFramer.appendFrame(p, to: &stream)
        }
        var framer = GRPCMessageFramer()
        var received: [[UInt8]] = []
        var at = 0
        while at < stream.count {
            let n = min(stream.count - at, 1 + Int(rng.next() % 700))
            framer.append(stream[at..<at + n])
            at += n
            while let m = try framer.nextMessage() { received.append(m.payload) }
        }
        #expect(received == payloads)
        for (i, p) in received.enumerated() { _ = Self.outcome(Self.decoders[i % Self.decoders.count].1, p) }
    }
}
