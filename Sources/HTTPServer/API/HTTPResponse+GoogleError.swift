extension HTTPResponse {
    /// An error in the Google API shape, `{"error":{"code","message","status"}}`, for the
    /// errors the transport itself answers (malformed requests, limits, timeouts), so every
    /// client mistake gets the same body shape as the Firestore errors behind it.
    /// Source: docs/reference/firestore-wire.md §1.8; RFC 9110 §15 for the statuses.
    static func googleError(_ status: Int, _ message: String) -> HTTPResponse {
        let name: String
        switch status {
        case 408: name = "DEADLINE_EXCEEDED"
        case 501, 505: name = "UNIMPLEMENTED"
        case 400..<500: name = "INVALID_ARGUMENT"
        default: name = "INTERNAL"
        }
        var escaped = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        let body = #"{"error":{"code":\#(status),"message":"\#(escaped)","status":"\#(name)"}}"#
        return .json(status, Array(body.utf8))
    }
}
