import FirestoreModel

/// The `google.firestore.v1` protobuf messages Hearth's gRPC service speaks, mapped directly
/// to and from the domain model (docs/ARCHITECTURE.md rule 1: the engine never sees protobuf).
///
/// Hand-written, no generated code. Request messages are nested structs decoded with
/// `init(serializedBytes:)`, which throws `FirestoreError` — `INVALID_ARGUMENT` naming the
/// field path (`Invalid CommitRequest at writes[0].update.name: …`), or `UNIMPLEMENTED` for
/// features Hearth lacks. Response messages are nested structs (or static encoders) whose
/// `serializedBytes(…)` emits fields in ascending number, skips proto3 defaults of plain
/// scalars and always writes set oneof arms (docs/reference/grpc-and-listen.md §5.2). Document names are full
/// resource names, checked against the request's database.
///
/// Decoding follows the protobuf library conventions: unknown fields are skipped, a known
/// field arriving with an unexpected wire type is skipped like an unknown one, repeated
/// scalars are accepted packed and unpacked, the last occurrence of a singular field or
/// oneof arm wins. Groups and malformed bytes are errors.
/// Source: googleapis `google/firestore/v1/*.proto`; docs/reference/grpc-and-listen.md §5–§6.
public enum FirestoreProto {}

extension FirestoreProto {
    /// Runs a model-level check, turning its `FirestoreError` into a `ProtoWireError` at `offset`
    /// (so it gains the field path on its way out).
    @inline(__always)
    static func checked<T>(at offset: Int, _ body: () throws(FirestoreError) -> T) throws(ProtoWireError) -> T {
        do {
            return try body()
        } catch {
            if error.code == .unimplemented { throw ProtoWireError(.unsupported(error.message), offset: offset) }
            throw ProtoWireError(.invalidValue(error.message), offset: offset)
        }
    }

    /// Decodes a whole request: runs `body` on a reader over `bytes` and maps any
    /// `ProtoWireError` to the `FirestoreError` naming `message` and the field path.
    /// - Throws: `FirestoreError` (`INVALID_ARGUMENT`, or `UNIMPLEMENTED` for unsupported features).
    static func decodeRequest<T>(_ message: String, _ bytes: [UInt8], _ body: (ProtoReader) throws(ProtoWireError) -> T)
        throws(FirestoreError) -> T
    {
        do {
            return try body(ProtoReader(bytes))
        } catch {
            throw error.firestoreError(decoding: message)
        }
    }

    /// A field-path component for a map key: `name.key`, back-quoted when not simple.
    static func mapKeyComponent(_ name: String, _ key: String) -> String {
        name + "." + FieldPath([key]).canonical
    }
}
