import FirestoreModel
import Functions

/// The second app's backend: the poetry network of docs/app/poetry.md, as Firestore triggers
/// and one scheduled function. Clients write only intentions — a poem to `pendingPoems`, a like,
/// a comment, a follow, a report; these functions derive the rest (published poems, counters,
/// followers, feeds, the monthly leaderboard, the daily prompt), and the app's rules close every
/// derived collection to clients.
///
/// Every trigger is idempotent: its writes commit in one batch with a marker document
/// `functionEvents/{trigger}-{event id}` created in the same batch, so an event delivered twice
/// (Hearth delivers at least once, production too) changes nothing the second time. Counters
/// use increments inside those batches, so concurrent likes stay exact.
public enum PoetryBackend {
    /// The codebase name that selects this backend in `firebase.json` (`functions.codebase`).
    public static let codebase = "poetry"
    /// Leaderboard points per published poem, per like received, per comment received.
    public static let points = (poem: Int64(10), like: Int64(1), comment: Int64(2))

    /// Registers the triggers and the schedule on `host`, with `moderator` deciding publication.
    /// - Throws: never for the patterns below (they are well formed); `FirestoreError` otherwise.
    public static func register(into host: FunctionsHost, moderator: any PoemModerator = RuleBasedModerator()) throws(FirestoreError) {
        let admin = host.admin
        try host.onDocumentCreated("pendingPoems/{poemId}", name: "moderatePoem", retry: .attempts(3)) { event in
            try publish(event, admin: admin, moderator: moderator)
        }
        try host.onDocumentCreated("poems/{poemId}/likes/{uid}", name: "onLikeCreated", retry: .attempts(3)) { event in
            try like(event, admin: admin, delta: 1)
        }
        try host.onDocumentDeleted("poems/{poemId}/likes/{uid}", name: "onLikeDeleted", retry: .attempts(3)) { event in
            try like(event, admin: admin, delta: -1)
        }
        try host.onDocumentCreated("poems/{poemId}/comments/{commentId}", name: "onCommentCreated", retry: .attempts(3)) { event in
            try comment(event, admin: admin, delta: 1)
        }
        try host.onDocumentDeleted("poems/{poemId}/comments/{commentId}", name: "onCommentDeleted", retry: .attempts(3)) { event in
            try comment(event, admin: admin, delta: -1)
        }
        try host.onDocumentCreated("users/{uid}/following/{target}", name: "onFollowCreated", retry: .attempts(3)) { event in
            try follow(event, admin: admin, delta: 1)
        }
        try host.onDocumentDeleted("users/{uid}/following/{target}", name: "onFollowDeleted", retry: .attempts(3)) { event in
            try follow(event, admin: admin, delta: -1)
        }
        host.onSchedule("publishDailyPrompt", schedule: Schedule(every: .seconds(24 * 60 * 60))) { event in
            let day = try DailyPrompts.publish(at: event.scheduleTime, admin: admin)
            FunctionsLogger.info("daily prompt \(day) published")
            return ["date": .string(day)]
        }
    }

    // MARK: The triggers

    /// `pendingPoems/{poemId}` created: moderate; publish to `poems/{poemId}` (author's
    /// `poemCount`, leaderboard, followers' feeds) or mark the pending poem rejected.
    static func publish(_ event: DocumentEvent, admin: AdminClient, moderator: any PoemModerator) throws {
        guard let pending = event.after, let poemId = event.params["poemId"],
            case .string(let authorId)? = pending.fields["authorId"]
        else { return }
        let title = text(pending, "title"), body = text(pending, "text")
        let verdict = moderator.moderate(title: title, text: body)
        var batch = admin.batch()
        batch.create(marker(admin, "moderatePoem", event), [:])
        let pendingRef = admin.document("pendingPoems/\(poemId)")
        switch verdict {
        case .rejected(let reason):
            batch.update(pendingRef, ["status": .string("rejected"), "reason": .string(reason)])
            try once { () throws(FirestoreError) in _ = try batch.commit() }
            FunctionsLogger.info("poem \(poemId) rejected: \(reason)")
        case .approved:
            let poem = admin.document("poems/\(poemId)")
            batch.create(
                poem,
                [
                    "authorId": .string(authorId), "title": .string(title), "text": .string(body),
                    "publishedAt": .serverTimestamp, "likeCount": .integer(0), "commentCount": .integer(0),
                ])
            batch.update(pendingRef, ["status": .string("approved")])
            batch.set(admin.document("users/\(authorId)"), ["poemCount": .increment(.integer(1))], merge: true)
            addScore(&batch, admin, author: authorId, points: points.poem, at: event.time)
            try once { () throws(FirestoreError) in _ = try batch.commit() }
            // The feeds (again after a repeated event: the sets are idempotent).
            guard let published = try poem.get().document else { return }
            try fanOut(published, author: authorId, admin: admin)
            FunctionsLogger.info("poem \(poemId) published")
        }
    }

    /// Writes the published poem into the `feed` of each follower of its author, 450 per batch.
    static func fanOut(_ poem: Document, author: String, admin: AdminClient) throws(FirestoreError) {
        let followers = try admin.collection("users/\(author)/followers").get().documents
        var start = 0
        while start < followers.count {
            var batch = admin.batch()
            for f in followers[start..<min(start + 450, followers.count)] {
                batch.set(
                    admin.document("users/\(f.documentID)/feed/\(poem.path.lastSegment)"),
                    [
                        "authorId": .string(author), "title": .value(poem.fields["title"] ?? .null),
                        "publishedAt": .value(poem.fields["publishedAt"] ?? .null),
                    ])
            }
            try batch.commit()
            start += 450
        }
    }

    /// A like created (`delta` 1) or removed (−1): the poem's `likeCount`, the liker's `liked`
    /// list, the author's score.
    static func like(_ event: DocumentEvent, admin: AdminClient, delta: Int64) throws {
        guard let poemId = event.params["poemId"], let uid = event.params["uid"] else { return }
        let poemRef = admin.document("poems/\(poemId)")
        guard let poem = try poemRef.get().document, case .string(let author)? = poem.fields["authorId"] else { return }
        var batch = admin.batch()
        batch.create(marker(admin, delta > 0 ? "onLikeCreated" : "onLikeDeleted", event), [:])
        batch.update(poemRef, ["likeCount": .increment(.integer(delta))])
        let liked = admin.document("users/\(uid)/liked/\(poemId)")
        if delta > 0 {
            batch.set(liked, ["authorId": .string(author), "title": .value(poem.fields["title"] ?? .null), "likedAt": .timestamp(event.time)])
        } else {
            batch.delete(liked)
        }
        addScore(&batch, admin, author: author, points: points.like * delta, at: event.time)
        try once { () throws(FirestoreError) in _ = try batch.commit() }
    }

    /// A comment created or deleted: the poem's `commentCount` and the poem author's score.
    static func comment(_ event: DocumentEvent, admin: AdminClient, delta: Int64) throws {
        guard let poemId = event.params["poemId"] else { return }
        let poemRef = admin.document("poems/\(poemId)")
        guard let poem = try poemRef.get().document, case .string(let author)? = poem.fields["authorId"] else { return }
        var batch = admin.batch()
        batch.create(marker(admin, delta > 0 ? "onCommentCreated" : "onCommentDeleted", event), [:])
        batch.update(poemRef, ["commentCount": .increment(.integer(delta))])
        addScore(&batch, admin, author: author, points: points.comment * delta, at: event.time)
        try once { () throws(FirestoreError) in _ = try batch.commit() }
    }

    /// A follow created or deleted: the target's `followers` entry and both counters.
    static func follow(_ event: DocumentEvent, admin: AdminClient, delta: Int64) throws {
        guard let uid = event.params["uid"], let target = event.params["target"], uid != target else { return }
        var batch = admin.batch()
        batch.create(marker(admin, delta > 0 ? "onFollowCreated" : "onFollowDeleted", event), [:])
        let follower = admin.document("users/\(target)/followers/\(uid)")
        if delta > 0 { batch.set(follower, ["since": .timestamp(event.time)]) } else { batch.delete(follower) }
        batch.set(admin.document("users/\(uid)"), ["followingCount": .increment(.integer(delta))], merge: true)
        batch.set(admin.document("users/\(target)"), ["followerCount": .increment(.integer(delta))], merge: true)
        try once { () throws(FirestoreError) in _ = try batch.commit() }
    }

    // MARK: Helpers

    /// The marker making a trigger's batch happen once per event.
    static func marker(_ admin: AdminClient, _ trigger: String, _ event: DocumentEvent) -> DocumentReference {
        admin.document("functionEvents/\(trigger)-\(event.id)")
    }

    /// Runs a batch commit; a repeated event (its marker exists already) is not an error.
    /// - Returns: false when the event had been handled before.
    @discardableResult
    static func once(_ commit: () throws(FirestoreError) -> Void) throws(FirestoreError) -> Bool {
        do throws(FirestoreError) {
            try commit()
            return true
        } catch {
            if error.code == .alreadyExists { return false }
            throw error
        }
    }

    /// Adds `points` to the author's entry of the month of `time` (`leaderboards/{YYYY-MM}/entries/{uid}`).
    static func addScore(_ batch: inout WriteBatch, _ admin: AdminClient, author: String, points: Int64, at time: Timestamp) {
        let month = String(time.rfc3339.prefix(7))
        batch.set(
            admin.document("leaderboards/\(month)/entries/\(author)"),
            ["uid": .string(author), "month": .string(month), "score": .increment(.integer(points))], merge: true)
    }

    /// A string field, or "".
    static func text(_ doc: Document, _ field: String) -> String {
        if case .string(let s)? = doc.fields[field] { return s }
        return ""
    }
}
