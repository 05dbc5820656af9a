import FirestoreModel
import Functions

extension RecipientSelection.PresenceCandidate {
    /// The candidate a `presence/{uid}` document stands for (docs/app/shouts-and-whispers.md §3), or nil when it lacks
    /// a numeric `lat`/`lng` or a timestamp `updatedAt` (e.g. a token-only document). A
    /// `fcmToken` that is not a non-empty string counts as no token.
    init?(snapshot: DocumentSnapshot) {
        guard let f = snapshot.data, let lat = Self.number(f["lat"]), let lng = Self.number(f["lng"]),
            case .timestamp(let updatedAt)? = f["updatedAt"]
        else { return nil }
        var token: String?
        if case .string(let t)? = f["fcmToken"], !t.isEmpty { token = t }
        self.init(uid: snapshot.documentID, lat: lat, lng: lng, updatedAt: updatedAt, fcmToken: token)
    }

    private static func number(_ v: Value?) -> Double? {
        switch v {
        case .integer(let i)?: return Double(i)
        case .double(let d)?: return d
        default: return nil
        }
    }
}
