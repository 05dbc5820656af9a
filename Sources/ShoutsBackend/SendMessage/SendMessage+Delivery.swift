import FirestoreModel
import Functions

extension SendMessage {
    /// Step 6: writes the feed copies, `ShoutsConstants.feedBatchMaxWrites` per batch, the
    /// batches stored together (one transaction, one fsync; each batch its own commit time).
    /// - Parameter onlyMissing: write only the copies that do not exist yet (idempotent retry).
    /// - Throws: storage errors; batches committed before the failure stay committed.
    func deliver(_ message: StoredMessage, to recipients: [RecipientSelection.Recipient], onlyMissing: Bool)
        throws(FirestoreError)
    {
        let users = admin.collection(ShoutsCollections.users)
        var batches: [WriteBatch] = []
        for start in stride(from: 0, to: recipients.count, by: ShoutsConstants.feedBatchMaxWrites) {
            let chunk = recipients[start..<min(start + ShoutsConstants.feedBatchMaxWrites, recipients.count)]
            let refs = chunk.map { users.document($0.uid).collection(ShoutsCollections.feed).document(message.id) }
            var missing = Array(repeating: true, count: refs.count)
            if onlyMissing {
                missing = try admin.getAll(refs).map { !$0.exists }
            }
            var batch = admin.batch()
            for (i, recipient) in chunk.enumerated() where missing[i] {
                batch.set(refs[i], message.feedFields(for: recipient))
            }
            if batch.count > 0 { batches.append(batch) }
        }
        try admin.commit(batches)
    }

    /// Step 7: best-effort push to every recipient but the sender, then token cleanup.
    func push(_ message: StoredMessage, to recipients: [RecipientSelection.Recipient]) {
        let targets = recipients.compactMap { r -> (uid: String, token: String)? in
            guard !r.isOwn, let token = r.fcmToken, !token.isEmpty else { return nil }
            return (r.uid, token)
        }
        guard !targets.isEmpty else { return }
        let title = message.senderName.map { "\(message.kind.displayName) from \($0)" }
            ?? "New \(message.kind.rawValue) nearby"
        let notification = PushNotification(title: title, body: message.text)
        let data = ["messageId": message.id, "kind": message.kind.rawValue]
        for start in stride(from: 0, to: targets.count, by: ShoutsConstants.fcmMulticastMaxTokens) {
            let chunk = Array(targets[start..<min(start + ShoutsConstants.fcmMulticastMaxTokens, targets.count)])
            do throws(MessagingError) {
                let response = try services.messaging.sendEachForMulticast(
                    tokens: chunk.map(\.token), notification: notification, data: data)
                for (i, r) in response.responses.enumerated()
                where r.error?.code == .registrationTokenNotRegistered {
                    clearToken(chunk[i].token, ofUser: chunk[i].uid)
                }
            } catch {
                services.report(ShoutsBackend.sendMessageName, error)
            }
        }
    }

    /// Sets `presence/{uid}.fcmToken` to null if it still holds `token` (the device may have
    /// saved a new one meanwhile; the update is conditioned on the version read).
    func clearToken(_ token: String, ofUser uid: String) {
        let ref = admin.collection(ShoutsCollections.presence).document(uid)
        do throws(FirestoreError) {
            let snapshot = try ref.get()
            guard case .string(token)? = snapshot.get("fcmToken"), let version = snapshot.updateTime else { return }
            try ref.update(["fcmToken": .null], precondition: .updateTime(version))
        } catch {
            services.report(ShoutsBackend.sendMessageName, error)
        }
    }
}
