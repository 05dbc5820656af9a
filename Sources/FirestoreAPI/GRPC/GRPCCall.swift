import FirestoreModel
import HTTPServer
import ProtoWire

/// One gRPC call on one HTTP/2 stream: reads request messages, writes response messages and
/// the status trailers. Response headers go out with the first message, or — when the call
/// fails before any — as a Trailers-Only response.
///
/// Source: repo grpc/grpc doc/PROTOCOL-HTTP2.md (requests, Length-Prefixed-Message, responses,
/// Trailers-Only); docs/reference/grpc-and-listen.md §4.1–§4.5.
final class GRPCCall: @unchecked Sendable {
    // @unchecked Sendable: the read half (`framer`, `body`, `requestEnded`: `nextMessage`) and
    // the write half (`headersSent`: `send`, then `finish`) share no stored property. Each half
    // is driven by one task at a time: a unary call runs both in sequence; Listen reads on one
    // task and sends on another (`ListenStream`), never two readers or two writers. The stream
    // object is Sendable.
    let stream: HTTP2Stream
    private var framer: GRPCMessageFramer
    private var body: HTTP2RequestBody.AsyncIterator
    private var headersSent = false
    private var requestEnded = false
    /// The call's deadline from `grpc-timeout`, if any.
    let deadline: ContinuousClock.Instant?

    init(stream: HTTP2Stream) throws(FirestoreError) {
        self.stream = stream
        self.framer = GRPCMessageFramer(maxMessageBytes: 16 << 20)
        self.body = stream.requestBody.makeAsyncIterator()
        if let encoding = stream.headers["grpc-encoding"], encoding != "identity" {
            // No compression is negotiated: `grpc-accept-encoding` is not sent back.
            self.deadline = nil
            throw FirestoreError(.unimplemented, "grpc-encoding \(encoding) is not supported.")
        }
        if let timeout = stream.headers["grpc-timeout"] {
            guard let d = Self.parseTimeout(timeout) else {
                self.deadline = nil
                throw FirestoreError(.invalidArgument, "Invalid grpc-timeout \"\(timeout)\".")
            }
            self.deadline = ContinuousClock.now.advanced(by: d)
        } else {
            self.deadline = nil
        }
    }

    /// Parses `grpc-timeout`: 1–8 ASCII digits and a unit `H M S m u n`.
    static func parseTimeout(_ text: String) -> Duration? {
        guard let unit = text.last, text.count >= 2, text.count <= 9, let n = Int64(text.dropLast()), n >= 0 else {
            return nil
        }
        switch unit {
        case "H": return .seconds(n * 3600)
        case "M": return .seconds(n * 60)
        case "S": return .seconds(n)
        case "m": return .milliseconds(n)
        case "u": return .microseconds(n)
        case "n": return .nanoseconds(n)
        default: return nil
        }
    }

    /// The next request message, or nil when the client half-closed the stream.
    /// - Throws: `INVALID_ARGUMENT` for a message over production's 10 MiB request limit
    ///   (`DocumentLimits.checkRequestSize`), the framing error as a status
    ///   (`RESOURCE_EXHAUSTED` over the 16 MiB framing cap, `INTERNAL`, …) or `CANCELLED` when
    ///   the client reset the stream.
    func nextMessage() async throws(FirestoreError) -> [UInt8]? {
        while true {
            let message: GRPCMessage?
            do {
                message = try framer.nextMessage()
            } catch {
                throw error.status
            }
            if let message {
                try DocumentLimits.checkRequestSize(message.payload.count)
                return message.payload
            }
            if requestEnded { return nil }
            let chunk: [UInt8]?
            do {
                chunk = try await body.next()
            } catch {
                throw FirestoreError(.cancelled, "The client cancelled the call.")
            }
            guard let chunk else {
                requestEnded = true
                do {
                    try framer.finish()
                } catch {
                    throw error.status
                }
                continue
            }
            framer.append(chunk)
        }
    }

    /// Exactly one request message (unary and server-streaming calls).
    /// - Throws: `INTERNAL` for zero or more than one message, or as `nextMessage()`.
    func singleRequest() async throws(FirestoreError) -> [UInt8] {
        guard let m = try await nextMessage() else {
            throw FirestoreError(.internalError, "The request had no message; a unary call needs exactly one.")
        }
        if try await nextMessage() != nil {
            throw FirestoreError(.internalError, "The request had more than one message for a unary call.")
        }
        return m
    }

    /// Sends one response message (the response headers first, if not yet sent).
    /// - Throws: `CANCELLED` when the stream is gone.
    func send(_ message: [UInt8]) async throws(FirestoreError) {
        do {
            if !headersSent {
                headersSent = true
                try await stream.sendHeaders(status: 200, ["content-type": "application/grpc"])
            }
            try await stream.sendData(GRPCMessageFramer.frame(message))
        } catch {
            throw FirestoreError(.cancelled, "The client went away.")
        }
    }

    /// Ends the call with `error` (nil = OK): trailers after messages, or Trailers-Only.
    func finish(_ error: FirestoreError?) async {
        var trailers = HTTPHeaders()
        trailers.add("grpc-status", String((error?.code ?? .ok).rawValue))
        if let error, !error.message.isEmpty { trailers.add("grpc-message", Self.percentEncode(error.message)) }
        do {
            if headersSent {
                try await stream.sendTrailers(trailers)
            } else {
                var headers = HTTPHeaders()
                headers.add("content-type", "application/grpc")
                for (n, v) in trailers { headers.add(n, v) }
                try await stream.sendHeaders(status: 200, headers, endStream: true)
            }
        } catch {
            // The stream is already gone (client reset): nothing more to say.
        }
    }

    /// `grpc-message` encoding: bytes outside printable ASCII and `%` become `%XX`.
    static func percentEncode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            if b >= 0x20 && b <= 0x7E && b != 0x25 {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += "%" + String(b >> 4, radix: 16, uppercase: true) + String(b & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
