import FirestoreModel

/// What a Listen stream tells its client; the gRPC adapter turns each into a `ListenResponse`.
/// Source: googleapis `firestore.proto` ListenResponse; docs/reference/grpc-and-listen.md §8.
public enum ListenEvent: Sendable, Equatable {
    /// `TargetChange`. Empty `targetIDs` with a read time is the global consistent snapshot.
    case targetChange(TargetChangeKind, targetIDs: [Int32], cause: FirestoreError?, resumeToken: [UInt8]?, readTime: Timestamp?)
    /// `DocumentChange`: the document now matches `targetIDs` (and no longer `removedTargetIDs`).
    case documentChange(Document, targetIDs: [Int32], removedTargetIDs: [Int32])
    /// `DocumentDelete`: the document was deleted at `readTime`.
    case documentDelete(ResourcePath, removedTargetIDs: [Int32], readTime: Timestamp)
    /// `DocumentRemove`: the document still exists but left the targets.
    case documentRemove(ResourcePath, removedTargetIDs: [Int32], readTime: Timestamp)
}

/// `TargetChange.TargetChangeType`.
public enum TargetChangeKind: Int, Sendable, Equatable {
    case noChange = 0, add = 1, remove = 2, current = 3, reset = 4
}

/// What a Listen target watches.
public enum ListenTargetKind: Sendable, Hashable {
    /// A query under a parent.
    case query(QueryTarget)
    /// A fixed set of documents.
    case documents([ResourcePath])
}

/// One `add_target` request. Source: googleapis `firestore.proto` Target.
public struct ListenTargetSpec: Sendable, Hashable {
    /// The client's target id.
    public var id: Int32
    /// What to watch.
    public var kind: ListenTargetKind
    /// The resume token of an earlier stream, if resuming.
    public var resumeToken: [UInt8]?
    /// Resume from a read time instead of a token.
    public var readTime: Timestamp?
    /// Send the initial results and CURRENT, then remove the target.
    public var once: Bool

    /// Creates a spec.
    public init(id: Int32, kind: ListenTargetKind, resumeToken: [UInt8]? = nil, readTime: Timestamp? = nil, once: Bool = false) {
        self.id = id
        self.kind = kind
        self.resumeToken = resumeToken
        self.readTime = readTime
        self.once = once
    }
}

/// Resume tokens: the read time they stand for, as 12 big-endian bytes (seconds, nanos).
public enum ResumeToken {
    /// The token for `t`.
    public static func make(_ t: Timestamp) -> [UInt8] {
        withUnsafeBytes(of: t.seconds.bigEndian, Array.init) + withUnsafeBytes(of: t.nanos.bigEndian, Array.init)
    }

    /// The read time of a token, or nil when it is not one of ours.
    public static func readTime(_ token: [UInt8]) -> Timestamp? {
        guard token.count == 12 else { return nil }
        var s: Int64 = 0
        for b in token[0..<8] { s = s << 8 | Int64(b) }
        var n: Int32 = 0
        for b in token[8..<12] { n = n << 8 | Int32(b) }
        let t = Timestamp(seconds: s, nanos: n)
        return t.isValid ? t : nil
    }
}
