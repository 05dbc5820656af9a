import FirestoreModel
import Functions

/// The audience of a message as decided at send time, stored beside the message in
/// `messages/{id}/audience/{chunk}` documents (`{entries: [{uid, distanceM}]}`, at most
/// `chunkSize` entries each, chunk ids `000000`, `000001`, …), in the same commit as the
/// message. The sender is not listed (their own copy is implied).
///
/// Not in docs/app/shouts-and-whispers.md §3: it is what makes an idempotent retry able to finish a half-done fan-out
/// for exactly the original audience (docs/app/shouts-and-whispers.md §1 rule 1 — the audience never grows).
enum AudienceRecord {
    /// Entries per chunk document: 1,000 (≈ 150 KB with 128-character uids, far below 1 MiB).
    static let chunkSize = 1000

    /// The chunk documents for `recipients` (own copy skipped).
    static func chunks(_ recipients: [RecipientSelection.Recipient]) -> [(id: String, fields: [String: FieldValue])] {
        let others = recipients.filter { !$0.isOwn }
        return stride(from: 0, to: others.count, by: chunkSize).enumerated().map { index, start in
            let entries = others[start..<min(start + chunkSize, others.count)].map { r -> Value in
                .map(["uid": .string(r.uid), "distanceM": .integer(Int64(r.distanceM))])
            }
            return (chunkID(index), ["entries": .value(.array(entries))])
        }
    }

    /// Reads the stored audience of `messageID`, the sender's own copy first.
    /// - Throws: `.internalError` for a malformed entry; storage errors.
    static func load(messageID: String, senderUID: String, admin: AdminClient) throws(FirestoreError)
        -> [RecipientSelection.Recipient]
    {
        let snapshot = try admin.collection(ShoutsCollections.messages).document(messageID)
            .collection(ShoutsCollections.audience).get()
        var out = [RecipientSelection.Recipient(uid: senderUID, distanceM: 0, isOwn: true, fcmToken: nil)]
        for doc in snapshot.documents {
            guard case .array(let entries)? = doc.data?["entries"] else {
                throw .internalError("Audience record \(doc.documentID) of message \(messageID) is malformed.")
            }
            for e in entries {
                guard case .map(let m) = e, case .string(let uid)? = m["uid"], case .integer(let d)? = m["distanceM"]
                else {
                    throw .internalError("Audience record \(doc.documentID) of message \(messageID) is malformed.")
                }
                out.append(RecipientSelection.Recipient(uid: uid, distanceM: Int(d), isOwn: false, fcmToken: nil))
            }
        }
        return out
    }

    /// `000042`: zero-padded so the documents list in chunk order.
    static func chunkID(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
