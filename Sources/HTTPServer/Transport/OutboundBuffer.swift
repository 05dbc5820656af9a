/// Bytes queued for one connection, written incrementally as the socket accepts them.
///
/// Small appends are coalesced into chunks of up to 16 KiB so a response head and a small body
/// go out in one `send`; large bodies stay separate chunks and are never copied.
struct OutboundBuffer: Sendable {
    /// What one ``drain(using:)`` achieved.
    enum DrainResult: Equatable, Sendable {
        /// Everything queued was written.
        case drained
        /// The socket's send buffer is full; wait for writability.
        case wouldBlock
        /// The peer is gone; the connection should close.
        case closed
    }

    private static let coalesceLimit = 16 << 10

    private var chunks: [[UInt8]] = []
    private var offset = 0

    /// Bytes queued and not yet written.
    private(set) var pendingBytes = 0

    /// Whether nothing is queued.
    var isEmpty: Bool { pendingBytes == 0 }

    /// Queues `bytes` after everything already queued.
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pendingBytes += bytes.count
        if let last = chunks.indices.last, chunks[last].count + bytes.count <= Self.coalesceLimit {
            chunks[last].append(contentsOf: bytes)
        } else {
            chunks.append(bytes)
        }
    }

    /// Writes queued bytes with `write` until done, the socket would block, or the peer is gone.
    /// - Parameters:
    ///   - write: one non-blocking write attempt, e.g. ``Syscall/write(_:_:)`` bound to a descriptor.
    /// - Returns: the outcome and the number of bytes written.
    mutating func drain(using write: (UnsafeRawBufferPointer) -> IOOutcome) -> (DrainResult, written: Int) {
        var written = 0
        while let first = chunks.first {
            let outcome = first.withUnsafeBytes { raw in
                write(UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            switch outcome {
            case .transferred(let count):
                written += count
                pendingBytes -= count
                offset += count
                if offset == first.count {
                    chunks.removeFirst()
                    offset = 0
                }
            case .wouldBlock:
                return (.wouldBlock, written)
            case .closed:
                return (.closed, written)
            }
        }
        chunks = []
        return (.drained, written)
    }

    /// Drops everything queued.
    mutating func removeAll() {
        chunks = []
        offset = 0
        pendingBytes = 0
    }
}
