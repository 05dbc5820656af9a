/// One complete HTTP request as handed to an ``HTTPHandler``.
///
/// The body is fully buffered (at most ``HTTPServerConfiguration/maxBodyBytes``); framing
/// (`Content-Length`, chunked) has already been removed. Source: RFC 9112 §3 (request line),
/// RFC 9110 §7.1 (request target).
public struct HTTPRequest: Sendable {
    /// The request method exactly as sent, e.g. `"GET"`; methods are case-sensitive (RFC 9110 §9.1).
    public var method: String
    /// The raw request-target, e.g. `"/v1/projects/p/databases/(default)/documents/a%2Fb?mask.fieldPaths=x"`.
    public var target: String
    /// The part of ``target`` before the first `?`, still percent-encoded, e.g. `"/v1/projects/p"`.
    ///
    /// For an absolute-form target (`http://host:port/p?q`) this is the path after the authority
    /// (`"/p"`, or `"/"` when empty); for the asterisk-form it is `"*"`.
    public var path: String
    /// The query of ``target`` split at `&` and the first `=`, with `+` decoded to a space and
    /// `%XX` escapes decoded as UTF-8; repeated names are kept in order. A member without `=`
    /// has an empty value.
    public var queryItems: [(name: String, value: String)]
    /// The request header fields in the order received.
    public var headers: HTTPHeaders
    /// The request body with transfer framing removed; empty when the request has none.
    public var body: [UInt8]
    /// The peer's address as `"host:port"`, e.g. `"127.0.0.1:53422"` or `"[::1]:53422"`.
    public var remoteAddress: String

    /// Creates a request, deriving ``path`` and ``queryItems`` from `target`.
    ///
    /// Useful for testing handlers without a socket.
    public init(
        method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        remoteAddress: String = ""
    ) {
        self.method = method
        self.target = target
        let split = RequestTarget.split(target)
        self.path = split.path
        self.queryItems = RequestTarget.decodeQuery(split.query)
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The body read as an HTML form (`application/x-www-form-urlencoded`): its name/value
    /// pairs in order, decoded as the query is (`+` is a space, `%XX` a byte).
    /// Source: WHATWG URL, application/x-www-form-urlencoded parsing.
    public var formItems: [(name: String, value: String)] {
        RequestTarget.decodeQuery(String(decoding: body, as: UTF8.self))
    }

    /// The first value of the query item named `name` (exact, case-sensitive match), or `nil`.
    public func queryItem(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
