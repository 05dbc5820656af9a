/// Response body bytes waiting for nghttp2's data provider, plus how the body ends.
struct HTTP2Outbox {
    private var bytes: [UInt8] = []
    private var offset = 0
    private(set) var ended = false
    /// Trailer fields to send after the last byte, if the body ends with trailers.
    var trailers: [(name: String, value: String)]?

    /// Bytes appended and not yet taken by nghttp2.
    var pendingBytes: Int { bytes.count - offset }

    /// Appends body bytes; `end` marks the body complete after them.
    mutating func append(_ more: [UInt8], end: Bool) {
        if offset == bytes.count {
            bytes = more
            offset = 0
        } else {
            bytes.append(contentsOf: more)
        }
        if end { ended = true }
    }

    /// Copies up to `capacity` bytes into `destination`; returns the count.
    mutating func read(into destination: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int {
        let count = min(capacity, pendingBytes)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { destination.update(from: base + offset, count: count) }
        }
        offset += count
        if offset == bytes.count {
            bytes = []
            offset = 0
        }
        return count
    }
}
