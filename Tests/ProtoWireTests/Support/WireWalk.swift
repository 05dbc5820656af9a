@testable import ProtoWire

/// Schema-less walks over protobuf bytes, for truncation and fuzz tests.
enum WireWalk {
    /// Offsets at which a top-level field ends (0 included): the only prefix lengths at
    /// which a truncated message is still well-formed at the top level.
    static func fieldBoundaries(_ bytes: [UInt8]) throws(ProtoWireError) -> Set<Int> {
        var r = ProtoReader(bytes)
        var ends: Set<Int> = [0]
        while let tag = try r.readTag() {
            try r.skipField(tag)
            ends.insert(r.offset)
        }
        return ends
    }

    /// Reads every field, descending into each LEN payload that parses as a message
    /// (guessing, as `protoc --decode_raw` does). Returns the number of fields seen.
    @discardableResult
    static func deep(_ reader: ProtoReader) throws(ProtoWireError) -> Int {
        var r = reader
        var count = 0
        while let tag = try r.readTag() {
            count += 1
            if tag.wireType == .len {
                let sub = try r.readSubmessage()
                if let n = try? deep(sub) { count += n }
            } else {
                try r.skipField(tag)
            }
        }
        return count
    }
}
