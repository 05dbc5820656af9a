/// How a server words the errors its transport answers by itself (a malformed request, a
/// limit exceeded, a request head that never completed): the HTTP status and a message in,
/// the response out. The owner supplies its API's error shape (Hearth: the Google error body
/// from GoogleWire's error table, so these errors look like the ones behind them); the
/// default is plain text, as the transport knows no API.
/// Source: RFC 9110 §15 (the statuses: 400, 408, 413, 431, 501, 505).
public typealias TransportErrorResponse = @Sendable (_ status: Int, _ message: String) -> HTTPResponse

/// The default transport error: `text/plain` with the message.
public let plainTransportErrorResponse: TransportErrorResponse = { status, message in .text(status, message + "\n") }
