/// The two ranges of a message (docs/app/shouts-and-whispers.md §1 rule 3), stored as the `kind` field.
public enum MessageKind: String, Sendable, Hashable, CaseIterable {
    /// Radius 150 m.
    case whisper
    /// Radius 1,500 m.
    case shout

    /// The delivery radius in metres (`ShoutsConstants`).
    public var radiusMeters: Double {
        switch self {
        case .whisper: return ShoutsConstants.whisperRadiusMeters
        case .shout: return ShoutsConstants.shoutRadiusMeters
        }
    }

    /// `Whisper` / `Shout`, for notification titles.
    var displayName: String {
        switch self {
        case .whisper: return "Whisper"
        case .shout: return "Shout"
        }
    }
}
