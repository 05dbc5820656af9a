import FirestoreModel
import HTTPServer
import Testing

@testable import Functions

@Suite("Messaging.sendEachForMulticast and the FCM outbox (docs/reference/firestore-wire.md §6)")
struct MessagingTests {
    let fixture: Fixture
    var messaging: Messaging { fixture.host.messaging }

    init() throws { fixture = try Fixture() }

    @Test("one response per token in order; unregistered- and invalid- tokens fail with the Admin codes")
    func perTokenResults() throws {
        let response = try messaging.sendEachForMulticast(
            tokens: ["t1", "unregistered-x", "invalid-y", "t2", ""],
            notification: PushNotification(title: "Hi", body: "there"), data: ["k": "v"])
        #expect(response.responses.map(\.success) == [true, false, false, true, false])
        #expect(response.responses[1].error?.code == .registrationTokenNotRegistered)
        #expect(response.responses[1].error?.code.rawValue == "messaging/registration-token-not-registered")
        #expect(response.responses[2].error?.code == .invalidArgument)
        #expect(response.responses[4].error?.code == .invalidArgument)
        #expect(response.successCount == 2)
        #expect(response.failureCount == 3)
        let ids = response.responses.compactMap(\.messageID)
        #expect(ids.count == 2 && Set(ids).count == 2)
        #expect(ids.allSatisfy { $0.hasPrefix("projects/demo-test/messages/") })
        let outbox = fixture.host.outbox.messages
        #expect(outbox.map(\.token) == ["t1", "t2"])
        #expect(outbox.map(\.messageID) == ids)
        #expect(outbox[0].notification == PushNotification(title: "Hi", body: "there"))
        #expect(outbox[0].data == ["k": "v"])
        #expect(outbox[0].sentAt == fixture.clock.read())
    }

    @Test("no tokens or more than 500 throws invalid-argument and sends nothing")
    func limits() throws {
        #expect(throws: MessagingError.self) { try messaging.sendEachForMulticast(tokens: [], notification: nil) }
        let many = (0..<501).map { "t\($0)" }
        #expect(throws: MessagingError.self) { try messaging.sendEachForMulticast(tokens: many, notification: nil) }
        #expect(fixture.host.outbox.messages.isEmpty)
        let ok = try messaging.sendEachForMulticast(tokens: Array(many.prefix(500)), notification: nil)
        #expect(ok.successCount == 500)
    }

    @Test("the outbox keeps at most its capacity, dropping the oldest")
    func capacity() {
        let outbox = FCMOutbox(capacity: 2)
        let t = Timestamp(seconds: 0, nanos: 0)
        outbox.append((1...3).map { OutboxMessage(messageID: "m\($0)", token: "t", notification: nil, data: [:], sentAt: t) })
        #expect(outbox.messages.map(\.messageID) == ["m2", "m3"])
    }

    @Test("GET …/fcm/outbox lists messages; DELETE clears; other projects 404")
    func outboxEndpoint() async throws {
        _ = try messaging.sendEachForMulticast(
            tokens: ["tok", "unregistered-old", "invalid-x"], notification: PushNotification(title: "T", body: "B"),
            data: ["messageId": "m1"])
        let handler = fixture.handler
        let path = "/emulator/v1/projects/demo-test/fcm/outbox"
        let get = await handler.handle(HTTPRequest(method: "GET", target: path))
        #expect(get.status == 200)
        let messages = try #require(try jsonObject(get)["messages"] as? [[String: Any]])
        #expect(messages.count == 1)
        #expect(messages[0]["token"] as? String == "tok")
        #expect((messages[0]["notification"] as? [String: String]) == ["title": "T", "body": "B"])
        #expect((messages[0]["data"] as? [String: String]) == ["messageId": "m1"])
        #expect((messages[0]["messageId"] as? String)?.hasPrefix("projects/demo-test/messages/") == true)
        #expect(messages[0]["sentAt"] as? String == "2026-01-01T00:00:00Z")
        // The refused pushes: the tokens the app is told to forget, and why.
        let rejected = try #require(try jsonObject(get)["rejected"] as? [[String: String]])
        #expect(rejected == [
            ["token": "unregistered-old", "code": "messaging/registration-token-not-registered", "at": "2026-01-01T00:00:00Z"],
            ["token": "invalid-x", "code": "messaging/invalid-argument", "at": "2026-01-01T00:00:00Z"],
        ])

        let delete = await handler.handle(HTTPRequest(method: "DELETE", target: path))
        #expect(delete.status == 200)
        #expect(text(delete) == "{}")
        #expect(fixture.host.outbox.messages.isEmpty)
        #expect(fixture.host.outbox.rejections.isEmpty)
        let empty = await handler.handle(HTTPRequest(method: "GET", target: path))
        #expect(text(empty) == #"{"messages":[],"rejected":[]}"#)

        let other = await handler.handle(HTTPRequest(method: "GET", target: "/emulator/v1/projects/other/fcm/outbox"))
        #expect(other.status == 404)
        let post = await handler.handle(HTTPRequest(method: "POST", target: path))
        #expect(post.status == 405)
    }
}
