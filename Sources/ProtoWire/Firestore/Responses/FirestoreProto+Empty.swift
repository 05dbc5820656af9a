extension FirestoreProto {
    /// The serialized `google.protobuf.Empty` (zero bytes): the response of Rollback and
    /// DeleteDocument. Source: docs/reference/grpc-and-listen.md §5.3.
    public static let serializedEmpty: [UInt8] = []
}
