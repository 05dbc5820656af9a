/// Serves connections that open with the HTTP/2 client preface (prior knowledge, RFC 9113 §3.3).
///
/// When a connection's first bytes are `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, the server hands it
/// to this handler instead of the HTTP/1.1 codec. ``serve(_:)`` runs in its own task for as
/// long as the connection should live; when it returns, the server closes the connection
/// (after sending anything still queued).
///
/// On server shutdown the serving task is cancelled: a handler should then stop taking new
/// streams (send `GOAWAY`), finish or end in-flight ones, and return. After the grace period
/// (``HTTPServerConfiguration/shutdownGracePeriod``) the connection is closed regardless:
/// pending reads return `nil` and writes throw.
public protocol HTTP2ConnectionHandler: Sendable {
    /// Speaks HTTP/2 on `connection` until done; the first bytes read include the client preface.
    func serve(_ connection: any ByteStreamConnection) async
}
