/// Field-name rules of the proto3 JSON mapping that every Google JSON endpoint shares.
///
/// Source: protobuf "JSON Mapping" (docs/reference/firestore-wire.md §1.7): parsers accept both the original
/// `snake_case` proto field name and its lowerCamelCase JSON name.
public enum ProtoJSON {
    /// `snake_case` → `lowerCamelCase` (`update_mask` → `updateMask`; proto3 JSON accepts
    /// both spellings of a field name); names without `_` are returned unchanged.
    public static func lowerCamelCase(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "_")) else { return name }
        var out = ""
        var upper = false
        for c in name {
            if c == "_" {
                upper = true
            } else if upper {
                out += c.uppercased()
                upper = false
            } else {
                out.append(c)
            }
        }
        return out
    }
}
