import FirestoreModel
import GoogleWire
import HTTPServer

extension HTTPServerConfiguration {
    /// A server configuration whose transport errors (malformed requests, limits, a request
    /// head that never completed) answer in the Google API error shape
    /// `{"error":{"code","message","status"}}`, with the status name from GoogleWire's one error
    /// table, so every client mistake looks like the Firestore, Auth and callable errors behind it.
    /// Source: docs/reference/firestore-wire.md §1.8.
    static func googleShaped(host: String, port: Int) -> HTTPServerConfiguration {
        HTTPServerConfiguration(host: host, port: port, transportErrorResponse: googleTransportError)
    }
}

/// The Google error body for a transport error of HTTP `status`.
let googleTransportError: TransportErrorResponse = { status, message in
    let error = FirestoreError(ErrorTable.code(forTransportStatus: status), message)
    return .json(status, ErrorTable.errorBody(error, httpStatus: status).serialized())
}
