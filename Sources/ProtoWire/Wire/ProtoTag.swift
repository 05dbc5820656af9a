/// A decoded field key: field number and wire type.
///
/// On the wire a tag is the varint `fieldNumber << 3 | wireType`; field numbers run
/// 1…536,870,911 (2²⁹ − 1). Source: protobuf encoding guide; docs/reference/grpc-and-listen.md §5.1.
public struct ProtoTag: Sendable, Hashable, CustomStringConvertible {
    /// The largest legal field number, 2²⁹ − 1.
    public static let maxFieldNumber = 536_870_911

    /// The field number, 1…`maxFieldNumber`.
    public var fieldNumber: Int
    /// How the payload is encoded.
    public var wireType: ProtoWireType

    /// Creates a tag; `fieldNumber` must be in 1…`maxFieldNumber` (a programmer error otherwise).
    public init(fieldNumber: Int, wireType: ProtoWireType) {
        precondition(fieldNumber >= 1 && fieldNumber <= Self.maxFieldNumber, "field number out of range")
        self.fieldNumber = fieldNumber
        self.wireType = wireType
    }

    /// The varint value of the key, `fieldNumber << 3 | wireType`.
    public var rawValue: UInt64 { UInt64(fieldNumber) << 3 | UInt64(wireType.rawValue) }

    /// `field 2 LEN`.
    public var description: String { "field \(fieldNumber) \(wireType)" }
}
