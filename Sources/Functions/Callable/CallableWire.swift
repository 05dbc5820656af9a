import FoundationEssentials
import FirestoreModel
import GoogleWire

/// The callable protocol's bodies, without I/O: request decoding and response encoding.
///
/// Request: exactly `{"data": <value>}` (`data` may be null; no other top-level member).
/// Success: `{"result": <value>}`. Error: `{"error":{"status","message","details"?}}`.
/// Source: docs/reference/firestore-wire.md §3.2–§3.4; firebase-functions `isValidRequest`, `encode`, `decode`.
public enum CallableWire {
    /// The message firebase-functions gives every malformed request.
    public static let badRequest = "Bad Request"
    /// The deepest nesting of arrays and objects a request body may have (the whole body
    /// counts, `{"data": …}` is depth 1), as JavaScript's JSON parser on Cloud Functions allows.
    static let maxDepth = 512

    /// Whether a `Content-Type` value names JSON as the callable protocol requires:
    /// `application/json`, any case, with or without parameters (`; charset=utf-8`).
    /// A missing header is not JSON.
    ///
    /// Source: https://firebase.google.com/docs/functions/callable-reference ("Required:
    /// Content-Type: application/json; an optional ; charset=utf-8 is allowed"); firebase-functions
    /// `isValidRequest` compares the media type before the first `;`, trimmed and lowercased.
    public static func isJSONContentType(_ value: String?) -> Bool {
        guard let value else { return false }
        let mediaType = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return mediaType.trimmingASCII().lowercased() == "application/json"
    }

    /// Decodes a request body into its `data`.
    ///
    /// The `Content-Type` is checked by the caller (`isJSONContentType`).
    /// - Throws: `INVALID_ARGUMENT` "Bad Request" when the body is not JSON (including numbers
    ///   out of `Double` range such as `1e400`, invalid UTF-8, nesting deeper than 512), is not
    ///   an object, lacks `data`, or has other members; `INVALID_ARGUMENT` for undecodable
    ///   `@type` wrappers inside `data`.
    public static func decodeRequest(body: [UInt8]) throws(CallableError) -> CallableValue {
        guard let object = try? JSONValue.parse(body, maxDepth: maxDepth), case .object(let members) = object,
            !members.isEmpty, members.allSatisfy({ $0.key == "data" }), let data = members.last?.value
        else {
            throw .invalidArgument(badRequest)
        }
        return try CallableValue(json: data)
    }

    /// `{"result": <value>}` as UTF-8 JSON.
    /// - Throws: `INTERNAL` when the value holds a non-finite double.
    public static func encodeResult(_ value: CallableValue) throws(CallableError) -> [UInt8] {
        try CallableValue.object(["result": value]).jsonBytes()
    }

    /// `{"error":{"status": <NAME>, "message": <text>, "details"?: <value>}}` as UTF-8 JSON.
    /// Details that cannot be encoded (non-finite doubles) are dropped.
    public static func encodeError(_ error: CallableError) -> [UInt8] {
        var body: [String: CallableValue] = ["status": .string(error.code.name), "message": .string(error.message)]
        if let details = error.details, (try? details.jsonBytes()) != nil { body["details"] = details }
        let fallback = Array(#"{"error":{"message":"INTERNAL","status":"INTERNAL"}}"#.utf8)
        return (try? CallableValue.object(["error": .object(body)]).jsonBytes()) ?? fallback
    }
}
