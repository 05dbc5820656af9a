import FirestoreModel
import Functions

/// The validated `data` of a `sendMessage` call (docs/app/shouts-and-whispers.md §4 step 2).
///
/// `{text: string, kind: 'whisper'|'shout', lat: number, lng: number, idempotencyKey?: string}`;
/// other members are ignored.
///
/// * `text` is trimmed as JavaScript's `trim()` does (whitespace and line terminators at both
///   ends) and must then be 1…500 **UTF-16 code units** long — what `text.length` counts in the
///   TypeScript original and in the Dart client that pre-validates. The trimmed text is stored.
/// * `lat`/`lng` are JSON numbers (integers, doubles, or the iOS Int64Value wrapper) that are
///   finite and within −90…90 / −180…180. Booleans and numeric strings are not numbers.
/// * `idempotencyKey`, when present and not null, is a string of 1…128 UTF-16 code units.
struct SendMessageInput: Sendable, Hashable {
    /// The trimmed text, 1…500 UTF-16 code units.
    var text: String
    /// Whisper or shout.
    var kind: MessageKind
    /// Where the message is sent from.
    var location: GeoLocation
    /// The client's retry key, if any.
    var idempotencyKey: String?

    /// Longest idempotency key, in UTF-16 code units.
    static let maxIdempotencyKeyLength = 128

    /// Validates `data`.
    /// - Throws: `INVALID_ARGUMENT` naming the first offending field.
    init(data: CallableValue) throws(CallableError) {
        guard let members = data.objectValue else {
            throw .invalidArgument("The request must be an object with text, kind, lat and lng.")
        }
        guard case .string(let rawText)? = members["text"] else { throw .invalidArgument("text must be a string.") }
        let text = JSText.trim(rawText)
        let length = JSText.length(text)
        guard length >= 1 else { throw .invalidArgument("text must not be empty.") }
        guard length <= ShoutsConstants.maxTextLength else {
            throw .invalidArgument("text must be at most \(ShoutsConstants.maxTextLength) characters.")
        }
        guard let kindName = members["kind"]?.stringValue, let kind = MessageKind(rawValue: kindName) else {
            throw .invalidArgument("kind must be \"whisper\" or \"shout\".")
        }
        let lat = try Self.coordinate(members["lat"], name: "lat", limit: 90)
        let lng = try Self.coordinate(members["lng"], name: "lng", limit: 180)
        var key: String?
        switch members["idempotencyKey"] {
        case nil, .null?: key = nil
        case .string(let s)? where (1...Self.maxIdempotencyKeyLength).contains(JSText.length(s)): key = s
        default:
            throw .invalidArgument(
                "idempotencyKey must be a string of 1 to \(Self.maxIdempotencyKeyLength) characters.")
        }
        do throws(FirestoreError) {
            self.location = try GeoLocation(latitude: lat, longitude: lng)
        } catch {
            throw .invalidArgument(error.message)
        }
        self.text = text
        self.kind = kind
        self.idempotencyKey = key
    }

    private static func coordinate(_ value: CallableValue?, name: String, limit: Double) throws(CallableError)
        -> Double
    {
        guard let n = value?.numberValue, n.isFinite, (-limit...limit).contains(n) else {
            throw .invalidArgument("\(name) must be a number between -\(Int(limit)) and \(Int(limit)).")
        }
        return n
    }
}
