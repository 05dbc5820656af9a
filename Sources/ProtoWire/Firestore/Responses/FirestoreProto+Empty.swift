extension FirestoreProto {
    /// The serialized `google.protobuf.Empty` (zero bytes): the response of Rollback and
    /// DeleteDocument. Source: reference §5.3.
    public static let serializedEmpty: [UInt8] = []
}
