/// Serves plain HTTP requests that arrive over HTTP/2 with an ``HTTPHandler``, so REST
/// endpoints answer the same whichever protocol the client picked.
///
/// The body is collected (at most `maxBodyBytes`, else 413), `:method`/`:path` become the
/// request line, `:authority` is exposed as `host` if the client sent no `host` field, and the
/// response goes out as HEADERS (+ `content-length`) and one DATA run.
public struct HTTPHandlerStreamAdapter: HTTP2StreamHandler {
    private let handler: any HTTPHandler
    private let maxBodyBytes: Int

    /// Wraps `handler`; request bodies over `maxBodyBytes` (default 16 MiB) get 413.
    public init(_ handler: any HTTPHandler, maxBodyBytes: Int = 16 << 20) {
        self.handler = handler
        self.maxBodyBytes = maxBodyBytes
    }

    /// Collects the request, runs the handler and sends its response.
    public func handle(_ stream: HTTP2Stream) async {
        let body: [UInt8]
        do {
            body = try await stream.collectBody(maxBytes: maxBodyBytes)
        } catch .bodyTooLarge {
            await send(.text(413, "request body exceeds \(maxBodyBytes) bytes\n"), on: stream)
            return
        } catch {
            return  // Reset or gone: nothing to answer.
        }
        var headers = stream.headers
        if headers["host"] == nil && !stream.authority.isEmpty { headers.add("host", stream.authority) }
        let request = HTTPRequest(
            method: stream.method, target: stream.path, headers: headers, body: body,
            remoteAddress: stream.remoteAddress)
        await send(await handler.handle(request), on: stream, isHead: stream.method == "HEAD")
    }

    private func send(_ response: HTTPResponse, on stream: HTTP2Stream, isHead: Bool = false) async {
        var headers = response.headers
        headers.remove("content-length")
        headers.remove("transfer-encoding")
        let noBody = response.status == 204 || response.status == 304 || response.status < 200
        if let bodyStream = response.bodyStream {
            guard !noBody && !isHead else {
                bodyStream.cancel()
                try? await stream.sendHeaders(status: response.status, headers, endStream: true)
                return
            }
            await sendStreamed(response, bodyStream, headers: headers, on: stream)
            return
        }
        if !noBody { headers.add("content-length", String(response.body.count)) }
        let sendsBody = !noBody && !isHead && !response.body.isEmpty
        do {
            try await stream.sendHeaders(status: response.status, headers, endStream: !sendsBody)
            if sendsBody { try await stream.sendData(response.body, endStream: true) }
        } catch {
            // The peer reset the stream or left; nothing more to do.
        }
    }

    /// A streamed body as DATA frames, each run as the producer writes it; cancelled when the
    /// peer resets the stream or leaves.
    private func sendStreamed(
        _ response: HTTPResponse, _ bodyStream: HTTPBodyStream, headers: HTTPHeaders, on stream: HTTP2Stream
    ) async {
        do {
            try await stream.sendHeaders(status: response.status, headers, endStream: false)
            if !response.body.isEmpty { try await stream.sendData(response.body, endStream: false) }
            while let chunks = await withTaskCancellationHandler(
                operation: { await bodyStream.next() }, onCancel: { bodyStream.cancel() })
            {
                for chunk in chunks { try await stream.sendData(chunk, endStream: false) }
            }
            try await stream.sendData([], endStream: true)
        } catch {
            bodyStream.cancel()  // The peer reset the stream or left.
        }
    }
}
