/// An HTTP/2 error code as carried by RST_STREAM and GOAWAY (RFC 9113 §7).
public struct HTTP2ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit code on the wire.
    public var rawValue: UInt32

    /// Wraps a wire code; unknown codes are allowed (RFC 9113 §7: treat as `INTERNAL_ERROR`).
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `NO_ERROR` (0x0): graceful, not an error.
    public static let noError = HTTP2ErrorCode(rawValue: 0x0)
    /// `PROTOCOL_ERROR` (0x1).
    public static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    /// `INTERNAL_ERROR` (0x2): an implementation fault.
    public static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    /// `FLOW_CONTROL_ERROR` (0x3).
    public static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    /// `STREAM_CLOSED` (0x5).
    public static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    /// `REFUSED_STREAM` (0x7): not processed, safe to retry.
    public static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    /// `CANCEL` (0x8): the stream is no longer needed (gRPC clients map it to CANCELLED).
    public static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    /// `ENHANCE_YOUR_CALM` (0xb): the peer is too busy or abusive.
    public static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xB)

    /// The RFC name, e.g. `"CANCEL"`, or the hex code when unknown.
    public var description: String {
        let names: [UInt32: String] = [
            0x0: "NO_ERROR", 0x1: "PROTOCOL_ERROR", 0x2: "INTERNAL_ERROR", 0x3: "FLOW_CONTROL_ERROR",
            0x4: "SETTINGS_TIMEOUT", 0x5: "STREAM_CLOSED", 0x6: "FRAME_SIZE_ERROR", 0x7: "REFUSED_STREAM",
            0x8: "CANCEL", 0x9: "COMPRESSION_ERROR", 0xA: "CONNECT_ERROR", 0xB: "ENHANCE_YOUR_CALM",
            0xC: "INADEQUATE_SECURITY", 0xD: "HTTP_1_1_REQUIRED",
        ]
        return names[rawValue] ?? "0x" + String(rawValue, radix: 16)
    }
}
