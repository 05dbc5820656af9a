/// Settings of the HTTP/2 layer, advertised to every peer in the server preface (RFC 9113 §6.5.2).
public struct HTTP2Configuration: Sendable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS: streams a client may have open at once. Default 1000.
    public var maxConcurrentStreams: Int
    /// SETTINGS_INITIAL_WINDOW_SIZE: request body bytes a client may send on one stream before
    /// the handler reads them. Default 1 MiB (avoids the 64 KiB stall, docs/reference/grpc-and-listen.md §2.6).
    public var initialWindowSize: Int
    /// Connection-level receive window: unread body bytes over all streams. Default 16 MiB.
    public var connectionWindowSize: Int
    /// SETTINGS_MAX_HEADER_LIST_SIZE: largest request header block (name + value + 32 per
    /// field); larger requests are reset. Default 64 KiB.
    public var maxHeaderListSize: Int

    /// A configuration; every parameter has the default documented on its property.
    public init(
        maxConcurrentStreams: Int = 1_000, initialWindowSize: Int = 1 << 20, connectionWindowSize: Int = 16 << 20,
        maxHeaderListSize: Int = 64 << 10
    ) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.initialWindowSize = initialWindowSize
        self.connectionWindowSize = connectionWindowSize
        self.maxHeaderListSize = maxHeaderListSize
    }

    /// The values clamped to what HTTP/2 allows (windows ≤ 2³¹−1).
    var sessionSettings: NGHTTP2Session.Settings {
        let maxWindow = Int(Int32.max)
        return NGHTTP2Session.Settings(
            maxConcurrentStreams: UInt32(clamping: max(1, maxConcurrentStreams)),
            initialWindowSize: UInt32(clamping: min(max(initialWindowSize, 65_535), maxWindow)),
            connectionWindowSize: Int32(clamping: min(max(connectionWindowSize, 65_535), maxWindow)),
            maxHeaderListSize: UInt32(clamping: max(maxHeaderListSize, 4_096)))
    }
}
