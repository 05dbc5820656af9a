/// The low three bits of a protobuf tag: how the field's payload is laid out.
///
/// Source: protobuf encoding guide ("Message Structure"); docs/reference/grpc-and-listen.md §5.1.
public enum ProtoWireType: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// Base-128 varint: int32, int64, uint*, sint*, bool, enum.
    case varint = 0
    /// Eight bytes little-endian: fixed64, sfixed64, double.
    case i64 = 1
    /// Varint length then that many bytes: string, bytes, messages, packed repeated, map entries.
    case len = 2
    /// Deprecated group start; rejected unless the reader `acceptsGroups` (managed exports).
    case startGroup = 3
    /// Deprecated group end; rejected unless it closes a group being read.
    case endGroup = 4
    /// Four bytes little-endian: fixed32, sfixed32, float.
    case i32 = 5

    /// The upper-case name the protobuf encoding guide uses (`VARINT`, `I64`, `LEN`, …).
    public var description: String {
        switch self {
        case .varint: "VARINT"
        case .i64: "I64"
        case .len: "LEN"
        case .startGroup: "SGROUP"
        case .endGroup: "EGROUP"
        case .i32: "I32"
        }
    }
}
