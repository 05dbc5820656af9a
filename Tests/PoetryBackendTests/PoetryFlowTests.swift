import DocumentStore
import FirestoreEngine
import FirestoreModel
import Functions
import Testing

@testable import PoetryBackend

/// The poetry network's backend (docs/app/poetry.md) on an in-process engine: intentions in,
/// derived state out, exact counters under concurrency, events handled once.
@Suite struct PoetryFlowTests {
    final class App: Sendable {
        let engine: FirestoreEngine
        let host: FunctionsHost
        let dispatcher: TriggerDispatcher
        let task: Task<Void, Never>

        init() throws {
            engine = try FirestoreEngine(store: InMemoryDocumentStore())
            host = FunctionsHost(project: "demo-poetry", engine: engine)
            try PoetryBackend.register(into: host)
            dispatcher = host.makeTriggerDispatcher()
            let d = dispatcher
            task = Task { await d.run() }
        }

        var admin: AdminClient { host.admin }

        /// Waits until every queued event (and what it caused) was delivered.
        func settle() async throws {
            var quiet = 0
            for _ in 0..<2000 where quiet < 3 {
                try await Task.sleep(for: .milliseconds(5))
                quiet = host.triggerStats.backlog == 0 ? quiet + 1 : 0
            }
        }

        func field(_ path: String, _ name: String) throws -> Value? { try admin.document(path).get().get(name) }

        func stop() async {
            dispatcher.stop()
            await task.value
        }
    }

    static let month = String(FirestoreEngine.systemClock().rfc3339.prefix(7))

    func submit(_ app: App, _ id: String, author: String, title: String = "Rain", text: String = "soft rain on tin roofs")
        throws
    {
        try app.admin.document("pendingPoems/\(id)").set([
            "authorId": .string(author), "title": .string(title), "text": .string(text), "createdAt": .serverTimestamp,
        ])
    }

    @Test func anApprovedPoemIsPublishedCountedAndScored() async throws {
        let app = try App()
        try submit(app, "p1", author: "alice")
        try await app.settle()
        #expect(try app.field("poems/p1", "authorId") == .string("alice"))
        #expect(try app.field("poems/p1", "likeCount") == .integer(0))
        #expect(try app.field("pendingPoems/p1", "status") == .string("approved"))
        #expect(try app.field("users/alice", "poemCount") == .integer(1))
        #expect(try app.field("leaderboards/\(Self.month)/entries/alice", "score") == .integer(10))
        await app.stop()
    }

    @Test func aRejectedPoemSaysWhyAndIsNotPublished() async throws {
        let app = try App()
        try submit(app, "p2", author: "alice", text: "buy my spam now")
        try submit(app, "p3", author: "alice", text: "THIS IS ALL SHOUTING AND NOTHING ELSE AT ALL")
        try await app.settle()
        #expect(try app.field("pendingPoems/p2", "status") == .string("rejected"))
        #expect(try app.field("pendingPoems/p2", "reason") == .string("blocked word: spam"))
        #expect(try app.field("pendingPoems/p3", "reason") == .string("shouting"))
        #expect(try app.admin.document("poems/p2").get().exists == false)
        await app.stop()
    }

    @Test func concurrentLikesStayExact() async throws {
        let app = try App()
        try submit(app, "p1", author: "alice")
        try await app.settle()
        let admin = app.admin
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<50 {
                group.addTask { _ = try? admin.document("poems/p1/likes/u\(n)").set(["likedAt": .serverTimestamp]) }
            }
        }
        try await app.settle()
        #expect(try app.field("poems/p1", "likeCount") == .integer(50))
        #expect(try app.admin.document("users/u7/liked/p1").get().exists)
        for n in 0..<10 { try admin.document("poems/p1/likes/u\(n)").delete() }
        try await app.settle()
        #expect(try app.field("poems/p1", "likeCount") == .integer(40))
        #expect(try app.admin.document("users/u3/liked/p1").get().exists == false)
        #expect(try app.field("leaderboards/\(Self.month)/entries/alice", "score") == .integer(10 + 40))
        await app.stop()
    }

    @Test func followersGetTheAuthorsNewPoemsInTheirFeed() async throws {
        let app = try App()
        try app.admin.document("users/bob/following/alice").set(["since": .serverTimestamp])
        try await app.settle()
        #expect(try app.field("users/alice", "followerCount") == .integer(1))
        #expect(try app.field("users/bob", "followingCount") == .integer(1))
        #expect(try app.admin.document("users/alice/followers/bob").get().exists)
        try submit(app, "p9", author: "alice")
        try await app.settle()
        #expect(try app.field("users/bob/feed/p9", "authorId") == .string("alice"))
        try app.admin.document("users/bob/following/alice").delete()
        try await app.settle()
        #expect(try app.field("users/alice", "followerCount") == .integer(0))
        #expect(try app.admin.document("users/alice/followers/bob").get().exists == false)
        await app.stop()
    }

    @Test func commentsAreCountedAndScored() async throws {
        let app = try App()
        try submit(app, "p1", author: "alice")
        try await app.settle()
        for n in 0..<3 {
            try app.admin.document("poems/p1/comments/c\(n)").set(["authorId": .string("bob"), "text": .string("lovely")])
        }
        try app.admin.document("poems/p1/comments/c0").delete()
        try await app.settle()
        #expect(try app.field("poems/p1", "commentCount") == .integer(2))
        #expect(try app.field("leaderboards/\(Self.month)/entries/alice", "score") == .integer(10 + 2 * 2))
        await app.stop()
    }

    @Test func anEventDeliveredTwiceCountsOnce() async throws {
        let app = try App()
        try submit(app, "p1", author: "alice")
        try await app.settle()
        let like = try app.admin.document("poems/p1/likes/dave").set(["likedAt": .serverTimestamp])
        try await app.settle()
        // The same event again, as a redelivery after a crash would bring it.
        var event = DocumentEvent(
            database: app.host.database, path: ResourcePath(["poems", "p1", "likes", "dave"]),
            params: ["poemId": "p1", "uid": "dave"], before: nil,
            after: try app.admin.document("poems/p1/likes/dave").get().document, commitTime: like.updateTime ?? Timestamp(seconds: 0, nanos: 0))
        let stored = try app.admin.collection("functionEvents").get().documents.map(\.documentID)
        let likeMarker = try #require(stored.first { $0.hasPrefix("onLikeCreated-") })
        event.id = String(likeMarker.dropFirst("onLikeCreated-".count))
        try PoetryBackend.like(event, admin: app.admin, delta: 1)
        #expect(try app.field("poems/p1", "likeCount") == .integer(1))
        await app.stop()
    }

    @Test func theDailyPromptIsPublishedAndCurrentPointsAtIt() async throws {
        let app = try App()
        let result = try await app.host.runScheduled("publishDailyPrompt")
        let day = String(FirestoreEngine.systemClock().rfc3339.prefix(10))
        #expect(result == ["date": .string(day)])
        #expect(try app.field("dailyPrompts/current", "date") == .string(day))
        #expect(try app.field("dailyPrompts/current", "text") == app.field("dailyPrompts/\(day)", "text"))
        await app.stop()
    }

    @Test func theModeratorIsDeterministic() {
        let m = RuleBasedModerator()
        #expect(m.moderate(title: "Rain", text: "soft rain") == .approved)
        #expect(m.moderate(title: " ", text: "x") == .rejected(reason: "empty"))
        #expect(m.moderate(title: "Hate", text: "x") == .rejected(reason: "blocked word: hate"))
        #expect(m.moderate(title: "t", text: String(repeating: "a", count: 201)) == .rejected(reason: "a line longer than 200 characters"))
    }
}
