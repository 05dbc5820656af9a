import CNGHTTP2

/// The only door to nghttp2: one server-side `nghttp2_session` driven with `mem_recv` /
/// `mem_send` (no I/O here), whose callbacks are turned into ``Event`` values.
///
/// Not thread-safe; owned by one ``HTTP2Connection`` actor, which calls it only while isolated.
/// Request bodies use manual flow control (`NGHTTP2_OPT_NO_AUTO_WINDOW_UPDATE`): the receive
/// window is replenished only through ``consume(streamID:byteCount:)``, when the application has
/// actually taken the bytes (RFC 9113 §5.2). Response bodies are pulled by nghttp2 from a
/// per-stream outbox through a data provider, within the peer's flow-control windows.
final class NGHTTP2Session {
    /// What the peer did, in the order nghttp2 reported it.
    enum Event: Sendable {
        /// A request header block completed; `fields` are in wire order, pseudo-headers first.
        case requestHeaders(streamID: Int32, fields: [(name: String, value: String)], endStream: Bool)
        /// Request body bytes (flow-controlled: call ``consume(streamID:byteCount:)`` once taken).
        case data(streamID: Int32, bytes: [UInt8])
        /// The peer finished sending on the stream (END_STREAM on DATA or trailers).
        case endStream(streamID: Int32)
        /// The stream is closed (RFC 9113 §5.1); `errorCode` is 0 unless it was reset.
        case streamClosed(streamID: Int32, errorCode: UInt32)
    }

    /// Settings advertised to the peer in the server preface.
    struct Settings: Sendable {
        var maxConcurrentStreams: UInt32
        var initialWindowSize: UInt32
        var connectionWindowSize: Int32
        var maxHeaderListSize: UInt32
    }

    /// A fatal connection error from nghttp2; it has queued a GOAWAY where it could.
    struct SessionError: Error, Sendable, CustomStringConvertible {
        var code: Int32
        var description: String
    }

    private let session: OpaquePointer
    private let state: CallbackState

    /// Creates a server session and queues the server preface (SETTINGS, and a connection-level
    /// WINDOW_UPDATE up to `settings.connectionWindowSize`).
    /// - Throws: ``SessionError`` if nghttp2 cannot allocate the session.
    init(settings: Settings) throws(SessionError) {
        state = CallbackState(maxHeaderListSize: Int(settings.maxHeaderListSize))
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            throw SessionError(code: -901, description: "nghttp2_session_callbacks_new failed")
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)

        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else {
            throw SessionError(code: -901, description: "nghttp2_option_new failed")
        }
        defer { nghttp2_option_del(option) }
        nghttp2_option_set_no_auto_window_update(option, 1)

        var created: OpaquePointer?
        let status = nghttp2_session_server_new2(
            &created, callbacks, Unmanaged.passUnretained(state).toOpaque(), option)
        guard status == 0, let created else {
            throw SessionError(code: status, description: Self.describe(status))
        }
        session = created

        var entries = [
            nghttp2_settings_entry(settings_id: 0x3, value: settings.maxConcurrentStreams),
            nghttp2_settings_entry(settings_id: 0x4, value: settings.initialWindowSize),
            nghttp2_settings_entry(settings_id: 0x6, value: settings.maxHeaderListSize),
        ]
        nghttp2_submit_settings(session, 0, &entries, entries.count)
        nghttp2_session_set_local_window_size(session, 0, 0, settings.connectionWindowSize)
    }

    deinit {
        nghttp2_session_del(session)
    }

    // MARK: - Input and output

    /// Feeds bytes received from the peer (the first ones must be the client preface).
    /// - Returns: the events they caused, in order.
    /// - Throws: ``SessionError`` for a fatal protocol error (bad preface, flooding, HPACK
    ///   failure); the connection must be closed after flushing ``nextOutput(maxBytes:)``.
    func receive(_ bytes: [UInt8]) throws(SessionError) -> [Event] {
        let status = bytes.withUnsafeBufferPointer { buffer in
            nghttp2_session_mem_recv(session, buffer.baseAddress, buffer.count)
        }
        if status < 0 {
            let code = Int32(truncatingIfNeeded: status)
            throw SessionError(code: code, description: Self.describe(code))
        }
        return takeEvents()
    }

    /// Serializes pending frames, up to about `maxBytes` (frames are never split).
    /// - Returns: the bytes to send, or `nil` when nothing is pending.
    func nextOutput(maxBytes: Int = 64 << 10) -> [UInt8]? {
        var output: [UInt8] = []
        while output.count < maxBytes {
            var pointer: UnsafePointer<UInt8>?
            let length = nghttp2_session_mem_send(session, &pointer)
            guard length > 0, let pointer else { break }
            output.append(contentsOf: UnsafeBufferPointer(start: pointer, count: length))
        }
        return output.isEmpty ? nil : output
    }

    /// Events caused by the last ``nextOutput(maxBytes:)`` calls (e.g. streams that closed
    /// once their last frame was serialized).
    func takeEvents() -> [Event] {
        defer { state.events = [] }
        return state.events
    }

    /// Whether the session still has anything to read or write; when both are over, the
    /// connection can close (RFC 9113 §6.8 exchange finished or fatal error sent).
    var isActive: Bool {
        nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0
    }

    // MARK: - Responses

    /// Queues response HEADERS for `streamID`; with `endStream` they end the stream
    /// (e.g. a gRPC Trailers-Only response), otherwise DATA follows from the stream's outbox.
    /// - Returns: `false` if the stream no longer exists.
    func submitResponse(streamID: Int32, fields: [(name: String, value: String)], endStream: Bool) -> Bool {
        let status = withHeaderBlock(fields) { nva, count in
            if endStream {
                return nghttp2_submit_response(session, streamID, nva, count, nil)
            }
            state.outboxes[streamID] = HTTP2Outbox()
            var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: readOutbox)
            return nghttp2_submit_response(session, streamID, nva, count, &provider)
        }
        return status == 0
    }

    /// Appends response body bytes; with `endStream` the body ends after them.
    func appendData(streamID: Int32, bytes: [UInt8], endStream: Bool) {
        guard state.outboxes[streamID] != nil else { return }
        state.outboxes[streamID]?.append(bytes, end: endStream)
        nghttp2_session_resume_data(session, streamID)
    }

    /// Ends the response with trailer fields (sent as HEADERS with END_STREAM after all DATA,
    /// RFC 9113 §8.1), e.g. `grpc-status`.
    func submitTrailers(streamID: Int32, fields: [(name: String, value: String)]) {
        guard state.outboxes[streamID] != nil else { return }
        state.outboxes[streamID]?.trailers = fields
        state.outboxes[streamID]?.append([], end: true)
        nghttp2_session_resume_data(session, streamID)
    }

    /// Response bytes queued for `streamID` that nghttp2 has not taken yet (flow control).
    func pendingBodyBytes(streamID: Int32) -> Int {
        state.outboxes[streamID]?.pendingBytes ?? 0
    }

    /// Resets the stream (RST_STREAM with `errorCode`, RFC 9113 §6.4).
    func resetStream(streamID: Int32, errorCode: UInt32) {
        nghttp2_submit_rst_stream(session, 0, streamID, errorCode)
    }

    /// Returns `byteCount` received body bytes to the peer's flow-control windows
    /// (connection and, if still open, stream).
    func consume(streamID: Int32, byteCount: Int) {
        guard byteCount > 0 else { return }
        nghttp2_session_consume(session, streamID, byteCount)
    }

    /// Queues GOAWAY with the last stream processed and `errorCode` (RFC 9113 §6.8); newer
    /// streams are refused from now on.
    func submitGoaway(errorCode: UInt32) {
        nghttp2_submit_goaway(session, 0, nghttp2_session_get_last_proc_stream_id(session), errorCode, nil, 0)
    }

    // MARK: - Helpers

    private static func describe(_ code: Int32) -> String {
        String(decoding: nghttp2Bytes(nghttp2_strerror(code)), as: UTF8.self)
    }
}

/// State the C callbacks write to; `user_data` of the session points here (unretained; the
/// ``NGHTTP2Session`` owns both and deletes the session first).
final class CallbackState {
    /// Events since the last ``NGHTTP2Session/takeEvents()``.
    var events: [NGHTTP2Session.Event] = []
    /// Request header fields of blocks still being received, per stream.
    var pendingHeaders: [Int32: [(name: String, value: String)]] = [:]
    /// Header list size so far (RFC 9113 §6.5.2 accounting), per stream.
    var pendingHeaderBytes: [Int32: Int] = [:]
    /// Response bodies waiting for the data provider, per stream.
    var outboxes: [Int32: HTTP2Outbox] = [:]
    /// Largest request header list accepted, in bytes.
    let maxHeaderListSize: Int

    /// Empty state for a new session.
    init(maxHeaderListSize: Int) { self.maxHeaderListSize = maxHeaderListSize }

    /// The state behind a callback's `user_data` pointer.
    static func from(_ userData: UnsafeMutableRawPointer?) -> CallbackState? {
        userData.map { Unmanaged<CallbackState>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// The bytes of a NUL-terminated C string owned by nghttp2.
private func nghttp2Bytes(_ text: UnsafePointer<CChar>?) -> [UInt8] {
    guard let text else { return [] }
    var bytes: [UInt8] = []
    var index = 0
    while text[index] != 0 {
        bytes.append(UInt8(bitPattern: text[index]))
        index += 1
    }
    return bytes
}

/// Builds an `nghttp2_nv` array over one contiguous buffer and passes it to `body`; nghttp2
/// copies the fields during the call (`NGHTTP2_NV_FLAG_NONE`).
///
/// Names are lowercased (RFC 9113 §8.2.1) and fields whose name is not a token (after an
/// optional leading `:`) are dropped; CR, LF and NUL in values become spaces (§8.2.1), so a value
/// echoing peer input cannot corrupt the header block.
private func withHeaderBlock(
    _ fields: [(name: String, value: String)], _ body: (UnsafePointer<nghttp2_nv>?, Int) -> Int32
) -> Int32 {
    var storage: [UInt8] = []
    var ranges: [(Range<Int>, Range<Int>)] = []
    for (name, value) in fields {
        let lowercased = name.lowercased()
        let token = lowercased.hasPrefix(":") ? lowercased.dropFirst() : Substring(lowercased)
        guard !token.isEmpty, token.utf8.allSatisfy(ASCII.isTokenChar) else { continue }
        let nameStart = storage.count
        storage.append(contentsOf: lowercased.utf8)
        let valueStart = storage.count
        for byte in value.utf8 {
            storage.append(byte == ASCII.cr || byte == ASCII.lf || byte == 0 ? ASCII.space : byte)
        }
        ranges.append((nameStart..<valueStart, valueStart..<storage.count))
    }
    storage.append(0)  // Never empty, so the base address exists.
    return storage.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return NGHTTP2_ERR_INVALID_ARGUMENT.rawValue }
        let nva = ranges.map { name, value in
            nghttp2_nv(
                name: base + name.lowerBound, value: base + value.lowerBound, namelen: name.count,
                valuelen: value.count, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
        }
        return nva.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }
}

private let frameHeaders = UInt8(NGHTTP2_HEADERS.rawValue)
private let frameData = UInt8(NGHTTP2_DATA.rawValue)
private let flagEndStream = UInt8(NGHTTP2_FLAG_END_STREAM.rawValue)

// MARK: - C callbacks (no captures; state reached through user_data)

private let onBeginHeaders: nghttp2_on_begin_headers_callback = { _, frame, userData in
    guard let frame, let state = CallbackState.from(userData) else { return 0 }
    if frame.pointee.hd.type == frameHeaders && frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
        state.pendingHeaders[frame.pointee.hd.stream_id] = []
        state.pendingHeaderBytes[frame.pointee.hd.stream_id] = 0
    }
    return 0
}

private let onHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
    guard let frame, let state = CallbackState.from(userData) else { return 0 }
    let streamID = frame.pointee.hd.stream_id
    guard frame.pointee.hd.type == frameHeaders, frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST,
        let size = state.pendingHeaderBytes[streamID]
    else { return 0 }  // Trailers from the client are ignored.
    // RFC 9113 §6.5.2: field size is name + value + 32 octets.
    let total = size + nameLength + valueLength + 32
    guard total <= state.maxHeaderListSize else {
        state.pendingHeaders[streamID] = nil
        state.pendingHeaderBytes[streamID] = nil
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue  // nghttp2 resets the stream.
    }
    state.pendingHeaderBytes[streamID] = total
    let fieldName = String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self)
    let fieldValue = String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
    state.pendingHeaders[streamID]?.append((name: fieldName, value: fieldValue))
    return 0
}

private let onFrameReceived: nghttp2_on_frame_recv_callback = { _, frame, userData in
    guard let frame, let state = CallbackState.from(userData) else { return 0 }
    let header = frame.pointee.hd
    let endStream = header.flags & flagEndStream != 0
    if header.type == frameHeaders {
        if frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
            if let fields = state.pendingHeaders.removeValue(forKey: header.stream_id) {
                state.pendingHeaderBytes[header.stream_id] = nil
                state.events.append(.requestHeaders(streamID: header.stream_id, fields: fields, endStream: endStream))
            }
        } else if endStream {
            state.events.append(.endStream(streamID: header.stream_id))
        }
    } else if header.type == frameData && endStream {
        state.events.append(.endStream(streamID: header.stream_id))
    }
    return 0
}

private let onDataChunk: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
    guard let data, length > 0, let state = CallbackState.from(userData) else { return 0 }
    state.events.append(.data(streamID: streamID, bytes: Array(UnsafeBufferPointer(start: data, count: length))))
    return 0
}

private let onStreamClose: nghttp2_on_stream_close_callback = { _, streamID, errorCode, userData in
    guard let state = CallbackState.from(userData) else { return 0 }
    state.pendingHeaders[streamID] = nil
    state.pendingHeaderBytes[streamID] = nil
    state.outboxes[streamID] = nil
    state.events.append(.streamClosed(streamID: streamID, errorCode: errorCode))
    return 0
}

/// nghttp2 pulls response body bytes here (RFC 9113 §6.1), within the flow-control windows.
private let readOutbox: nghttp2_data_source_read_callback = { session, streamID, buffer, length, flags, _, userData in
    guard let buffer, let flags, let state = CallbackState.from(userData), state.outboxes[streamID] != nil else {
        flags?.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        return 0
    }
    let count = state.outboxes[streamID]?.read(into: buffer, capacity: length) ?? 0
    guard let outbox = state.outboxes[streamID] else { return count }
    if outbox.pendingBytes == 0 && outbox.ended {
        flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        if let trailers = outbox.trailers {
            flags.pointee |= NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
            _ = withHeaderBlock(trailers) { nghttp2_submit_trailer(session, streamID, $0, $1) }
        }
        return count
    }
    return count > 0 ? count : Int(NGHTTP2_ERR_DEFERRED.rawValue)
}
