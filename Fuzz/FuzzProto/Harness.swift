import FirestoreModel
import FirestoreRPC
import FuzzSupport
import ProtoWire

/// Every Firestore request decoder on one input (issue 18 item 1): the first byte picks the
/// message type, the rest is its protobuf. A decoder may refuse the bytes (`FirestoreError`);
/// it must never crash, leak or hang.
func fuzzOne(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let b = Array(bytes.dropFirst())
    let db = DatabaseID(project: "p")
    do throws(FirestoreError) {
        switch first % 18 {
        case 0: _ = try GetDocumentRequest(serializedBytes: b)
        case 1: _ = try ListDocumentsRequest(serializedBytes: b)
        case 2: _ = try CreateDocumentRequest(serializedBytes: b)
        case 3: _ = try UpdateDocumentRequest(serializedBytes: b)
        case 4: _ = try DeleteDocumentRequest(serializedBytes: b)
        case 5: _ = try BatchGetDocumentsRequest(serializedBytes: b)
        case 6: _ = try BeginTransactionRequest(serializedBytes: b)
        case 7: _ = try CommitRequest(serializedBytes: b)
        case 8: _ = try RollbackRequest(serializedBytes: b)
        case 9: _ = try RunQueryRequest(serializedBytes: b)
        case 10: _ = try RunAggregationQueryRequest(serializedBytes: b)
        case 11: _ = try PartitionQueryRequest(serializedBytes: b)
        case 12: _ = try ListCollectionIdsRequest(serializedBytes: b)
        case 13: _ = try BatchWriteRequest(serializedBytes: b)
        case 14: _ = try WriteRequest(serializedBytes: b, streamDatabase: db)
        case 15: _ = try ListenRequest(serializedBytes: b, streamDatabase: db)
        case 16: _ = try FirestoreProto.value(serializedBytes: b)
        default:
            // The gRPC length-prefixed framing, fed in two pieces.
            var framer = GRPCMessageFramer(maxMessageBytes: 1 << 16)
            let half = b.count / 2
            framer.append(b[..<half])
            while (try? framer.nextMessage()) != nil {}
            framer.append(b[half...])
            while (try? framer.nextMessage()) != nil {}
        }
    } catch {
        return
    }
}

#if FUZZING
    @_cdecl("FuzzProto_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzSupport.run(argc, argv, fuzzOne)
    }
#else
    @main struct Replay { static func main() { FuzzSupport.replay(fuzzOne) } }
#endif
