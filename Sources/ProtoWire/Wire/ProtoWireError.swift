import FirestoreModel

/// Why protobuf bytes could not be decoded, where, and inside which field.
///
/// Every case is the peer's fault and maps to `INVALID_ARGUMENT` (`firestoreError(decoding:)`).
/// `fieldPath` is filled in while the error unwinds through the message decoders, outermost
/// field first (`["writes[0]", "update", "fields.a"]`), so the message names the field.
/// Source: protobuf encoding guide; docs/reference/grpc-and-listen.md §5.
public struct ProtoWireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with the bytes.
    public enum Reason: Sendable, Hashable {
        /// The input ended inside a tag, varint, fixed-width value or length-delimited payload.
        case truncated
        /// A varint longer than 10 bytes, or whose 10th byte carries bits beyond 64.
        case overlongVarint
        /// A length prefix larger than the bytes left in the enclosing message.
        case lengthExceedsInput(length: UInt64, available: Int)
        /// A tag with field number 0 or above 2²⁹ − 1.
        case invalidFieldNumber(UInt64)
        /// Wire type 6 or 7.
        case invalidWireType(UInt8)
        /// Wire type 3 or 4 (deprecated groups), which no Firestore message uses.
        case groupNotSupported(fieldNumber: Int)
        /// Submessages nested deeper than the reader's limit.
        case nestingTooDeep(limit: Int)
        /// A `string` field whose bytes are not valid UTF-8.
        case invalidUTF8
        /// Well-formed protobuf whose content the message decoders reject (bad name, bad enum, …).
        case invalidValue(String)
        /// A feature Hearth does not implement (vector search, pipelines); maps to
        /// `UNIMPLEMENTED` rather than `INVALID_ARGUMENT`.
        case unsupported(String)
    }

    /// What was wrong.
    public var reason: Reason
    /// Byte offset (from the start of the outermost buffer) where the problem was detected.
    public var offset: Int
    /// The fields the error occurred in, outermost first; empty for the top level.
    public var fieldPath: [String]

    /// Creates an error.
    public init(_ reason: Reason, offset: Int, fieldPath: [String] = []) {
        self.reason = reason
        self.offset = offset
        self.fieldPath = fieldPath
    }

    /// The reason in words, without the field path.
    public var reasonDescription: String {
        switch reason {
        case .truncated: return "input ends inside a field (byte \(offset))"
        case .overlongVarint: return "varint longer than 10 bytes or over 64 bits (byte \(offset))"
        case .lengthExceedsInput(let length, let available):
            return "length \(length) exceeds the \(available) bytes left (byte \(offset))"
        case .invalidFieldNumber(let n): return "invalid field number \(n) (byte \(offset))"
        case .invalidWireType(let t): return "invalid wire type \(t) (byte \(offset))"
        case .groupNotSupported(let n): return "field \(n) uses the group wire type, which is not supported (byte \(offset))"
        case .nestingTooDeep(let limit): return "messages nested deeper than \(limit) levels (byte \(offset))"
        case .invalidUTF8: return "string field is not valid UTF-8 (byte \(offset))"
        case .invalidValue(let message), .unsupported(let message): return message
        }
    }

    /// `writes[0].update: <reason>`, or just the reason at the top level.
    public var description: String {
        fieldPath.isEmpty ? reasonDescription : fieldPath.joined(separator: ".") + ": " + reasonDescription
    }

    /// The error as the gRPC layer reports it: `INVALID_ARGUMENT` (`UNIMPLEMENTED` for
    /// `.unsupported`) with `Invalid <message> at <field path>: <reason>`.
    /// - Parameter message: the protobuf message being decoded, e.g. `"CommitRequest"`.
    public func firestoreError(decoding message: String) -> FirestoreError {
        let code: StatusCode
        if case .unsupported = reason { code = .unimplemented } else { code = .invalidArgument }
        if fieldPath.isEmpty { return FirestoreError(code, "Invalid \(message): \(reasonDescription)") }
        return FirestoreError(code, "Invalid \(message) at \(fieldPath.joined(separator: ".")): \(reasonDescription)")
    }
}

/// Runs `body`, prefixing the field path of any `ProtoWireError` it throws with `component`
/// (built only on failure). The message decoders wrap every submessage read with it.
/// - Throws: what `body` throws, with `component` prepended to `fieldPath`.
@inline(__always)
func within<T>(_ component: @autoclosure () -> String, _ body: () throws(ProtoWireError) -> T) throws(ProtoWireError) -> T {
    do {
        return try body()
    } catch {
        var e = error
        e.fieldPath.insert(component(), at: 0)
        throw e
    }
}
