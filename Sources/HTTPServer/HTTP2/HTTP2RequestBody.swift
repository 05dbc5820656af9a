/// The request body of an ``HTTP2Stream`` as an asynchronous sequence of byte chunks.
///
/// Chunks arrive as DATA frames do (boundaries carry no meaning, e.g. a gRPC message may span
/// chunks). Taking a chunk returns its size to the peer's flow-control window, so a handler that
/// stops reading stops the peer after about one window (RFC 9113 §5.2). The sequence ends when
/// the peer ends the stream, and throws ``HTTP2StreamError/closed(_:)`` if the stream is reset
/// or the connection closes first. Iterate it once.
public struct HTTP2RequestBody: AsyncSequence, Sendable {
    /// One chunk of body bytes.
    public typealias Element = [UInt8]

    /// The chunks as delivered by the connection actor.
    let chunks: AsyncThrowingStream<[UInt8], any Error>
    /// Returns credit for `count` bytes to the flow-control windows.
    let consumed: @Sendable (Int) async -> Void

    /// Iterates the chunks, returning flow-control credit as each is taken.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// The underlying iterator.
        var base: AsyncThrowingStream<[UInt8], any Error>.AsyncIterator
        /// See ``HTTP2RequestBody/consumed``.
        let consumed: @Sendable (Int) async -> Void

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: ``HTTP2StreamError/closed(_:)`` if the stream was reset or the connection closed.
        public mutating func next() async throws -> [UInt8]? {
            guard let chunk = try await base.next() else { return nil }
            await consumed(chunk.count)
            return chunk
        }
    }

    /// Starts iterating.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: chunks.makeAsyncIterator(), consumed: consumed)
    }
}
