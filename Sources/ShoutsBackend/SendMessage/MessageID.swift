import FirestoreModel
import Functions

/// Message ids: random for plain sends, derived from `(sender, idempotencyKey)` for
/// idempotent ones, so a retried send names the same `messages/{id}` and the same
/// `users/{uid}/feed/{id}` documents (docs/app/shouts-and-whispers.md §7 "Fan-out is at-least-once", the suggested fix).
enum MessageID {
    /// A new random 20-character id, as Firestore clients generate.
    static func random() -> String { AutoID.make() }

    /// The first 32 hex digits (128 bits) of SHA-256 over `"<utf8 length of uid>:<uid><key>"`.
    ///
    /// The length prefix keeps `("ab", "c")` and `("a", "bc")` apart; at 128 bits accidental
    /// collisions are irrelevant at this scale (and a stored message from another sender is
    /// still refused by `sendMessage`).
    static func derived(senderUID: String, idempotencyKey: String) -> String {
        let material = Array("\(senderUID.utf8.count):\(senderUID)\(idempotencyKey)".utf8)
        return String(SHA256.hex(material).prefix(32))
    }
}
