/// Decides whether a poem submitted to `pendingPoems` is published (docs/app/poetry.md "Functions").
///
/// Production calls an AI moderation service here (the seed's Gemini step); Hearth runs the
/// app against a local, deterministic implementation so tests can say what is approved.
public protocol PoemModerator: Sendable {
    /// The verdict for a poem's title and text.
    func moderate(title: String, text: String) -> ModerationVerdict
}

/// What the moderator decided.
public enum ModerationVerdict: Sendable, Equatable {
    /// Published as is.
    case approved
    /// Not published; the reason is written back to the pending poem.
    case rejected(reason: String)
}

/// The local moderator: rule based and deterministic, documented as a stand-in for the AI
/// service. A poem is rejected when
/// - its title or text is blank (after trimming spaces and newlines),
/// - a word of its title or text is on `blockedWords` (case-insensitive, whole words),
/// - more than `maxShoutingShare` of its letters are capitals in a text of 20 letters or more,
/// - a line is longer than `maxLineLength` characters.
/// Otherwise it is approved.
public struct RuleBasedModerator: PoemModerator {
    /// Words that reject a poem (lower case).
    public var blockedWords: Set<String> = ["spam", "scam", "hate", "idiot", "kill"]
    /// Longest line accepted, in characters.
    public var maxLineLength = 200
    /// Share of capitals above which a text reads as shouting.
    public var maxShoutingShare = 0.8

    /// The default rules.
    public init() {}

    public func moderate(title: String, text: String) -> ModerationVerdict {
        let blank: (String) -> Bool = { $0.allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" } }
        if blank(title) || blank(text) { return .rejected(reason: "empty") }
        for word in (title + "\n" + text).lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            if blockedWords.contains(String(word)) { return .rejected(reason: "blocked word: \(word)") }
        }
        let letters = text.filter(\.isLetter)
        if letters.count >= 20 {
            let capitals = letters.filter(\.isUppercase).count
            if Double(capitals) / Double(letters.count) > maxShoutingShare { return .rejected(reason: "shouting") }
        }
        if text.split(separator: "\n", omittingEmptySubsequences: false).contains(where: { $0.count > maxLineLength }) {
            return .rejected(reason: "a line longer than \(maxLineLength) characters")
        }
        return .approved
    }
}
