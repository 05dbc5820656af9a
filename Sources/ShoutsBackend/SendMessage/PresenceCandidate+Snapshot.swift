import FirestoreModel
import Functions

extension RecipientSelection.PresenceCandidate {
    /// The candidate a `presence/{uid}` document stands for (docs/app/shouts-and-whispers.md §3), or nil when it lacks
    /// a numeric `lat`/`lng` or a timestamp `updatedAt` (e.g. a token-only document). A
    /// `fcmToken` that is not a non-empty string counts as no token.
    init?(snapshot: DocumentSnapshot) {
        guard let f = snapshot.data else { return nil }
        self.init(documentID: snapshot.documentID, values: Self.fields.map { f[$0] })
    }

    /// The fields a candidate is made of, in the order `init?(documentID:values:)` takes them.
    static let fields = ["lat", "lng", "updatedAt", "fcmToken"]

    /// The candidate of presence document `documentID` whose values at `fields` are `values`
    /// (nil where missing), or nil as for `init?(snapshot:)`.
    init?(documentID: String, values: [Value?]) {
        guard values.count == Self.fields.count, let lat = Self.number(values[0]), let lng = Self.number(values[1]),
            case .timestamp(let updatedAt)? = values[2]
        else { return nil }
        var token: String?
        if case .string(let t)? = values[3], !t.isEmpty { token = t }
        self.init(uid: documentID, lat: lat, lng: lng, updatedAt: updatedAt, fcmToken: token)
    }

    private static func number(_ v: Value?) -> Double? {
        switch v {
        case .integer(let i)?: return Double(i)
        case .double(let d)?: return d
        default: return nil
        }
    }
}
