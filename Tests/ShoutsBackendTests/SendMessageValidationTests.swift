import FirestoreModel
import Foundation
import Testing

@testable import ShoutsBackend

@Suite("sendMessage: authentication and validation through the callable handler (docs/app/shouts-and-whispers.md §4 steps 1–2)")
struct SendMessageValidationTests {
    let f: ShoutsFixture

    init() throws { f = try ShoutsFixture() }

    static let int64 = "type.googleapis.com/google.protobuf.Int64Value"

    @Test("no token: 401 UNAUTHENTICATED and nothing written")
    func unauthenticated() async throws {
        let r = await f.post(#"{"data":{"text":"hi","kind":"shout","lat":1,"lng":2}}"#, token: nil)
        #expect(r.status == 401)
        #expect(errorStatus(r) == "UNAUTHENTICATED")
        #expect(try f.db.collection("messages").get().isEmpty)
    }

    @Test("a uid that cannot be a document id is UNAUTHENTICATED, not a server error")
    func unusableUID() async throws {
        let r = await f.post(#"{"data":{"text":"hi","kind":"shout","lat":1,"lng":2}}"#, token: try f.token("a/b"))
        #expect(r.status == 401)
    }

    @Test(
        "invalid bodies and data are 400 INVALID_ARGUMENT, never 500, and write nothing",
        arguments: [
            "not json", "", "[]", #"{"text":"hi"}"#, #"{"data":{"text":"hi","kind":"shout","lat":1,"lng":2},"x":1}"#,
            #"{"data":null}"#, #"{"data":"hi"}"#, #"{"data":[1]}"#,
            #"{"data":{"kind":"shout","lat":1,"lng":2}}"#,
            #"{"data":{"text":42,"kind":"shout","lat":1,"lng":2}}"#,
            #"{"data":{"text":null,"kind":"shout","lat":1,"lng":2}}"#,
            #"{"data":{"text":"","kind":"shout","lat":1,"lng":2}}"#,
            #"{"data":{"text":" \n\t\r\u000b\u000c\u00a0\u2028\u3000\ufeff ","kind":"shout","lat":1,"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"yell","lat":1,"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"SHOUT","lat":1,"lng":2}}"#,
            #"{"data":{"text":"hi","lat":1,"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":91,"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":-90.0001,"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":1,"lng":180.5}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":1,"lng":-181}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":"37","lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":"NaN","lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":true,"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":null,"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":1e400,"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":1e300,"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":{"@type":"\#(int64)","value":"NaN"},"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":{"@type":"\#(int64)","value":"91"},"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":{"@type":"type.googleapis.com/google.protobuf.DoubleValue","value":"1"},"lng":2}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":1,"lng":2,"idempotencyKey":""}}"#,
            #"{"data":{"text":"hi","kind":"shout","lat":1,"lng":2,"idempotencyKey":7}}"#,
        ])
    func invalid(_ body: String) async throws {
        let r = await f.post(body, token: try f.token("me"))
        #expect(r.status == 400, "\(String(decoding: r.body, as: UTF8.self))")
        #expect(errorStatus(r) == "INVALID_ARGUMENT")
        #expect(try f.db.collection("messages").get().isEmpty)
        #expect(try f.db.collection("presence").get().isEmpty)
    }

    @Test("text length counts UTF-16 code units after trimming: 500 pass, 501 fail")
    func textLength() async throws {
        let ok = try await f.send(from: "a", text: "  " + String(repeating: "x", count: 500) + "\n ")
        #expect(ok.status == 200)
        f.clock.advance(seconds: 10)
        let tooLong = try await f.send(from: "a", text: String(repeating: "x", count: 501))
        #expect(tooLong.status == 400)
        let emoji250 = try await f.send(from: "b", text: String(repeating: "😀", count: 250))
        #expect(emoji250.status == 200)
        let emoji251 = try await f.send(from: "c", text: String(repeating: "😀", count: 251))
        #expect(emoji251.status == 400)
        #expect(errorStatus(emoji251) == "INVALID_ARGUMENT")
    }

    @Test("a megabyte of text is 400, not 500")
    func hugeText() async throws {
        let r = try await f.send(from: "a", text: String(repeating: "y", count: 1_000_000))
        #expect(r.status == 400)
    }

    @Test("an idempotencyKey of 129 characters is rejected; 128 is accepted")
    func keyLength() async throws {
        #expect(try await f.send(from: "a", idempotencyKey: String(repeating: "k", count: 129)).status == 400)
        #expect(try await f.send(from: "a", idempotencyKey: String(repeating: "k", count: 128)).status == 200)
    }

    @Test("the stored text is trimmed like JavaScript's trim()")
    func trimmed() async throws {
        let r = try await f.send(from: "a", text: "\u{FEFF}\u{3000} hello there\n\t")
        let id = try result(r).messageId
        #expect(try f.db.collection("messages").document(id).get().get("text") == .string("hello there"))
    }

    @Test("iOS Int64Value wrappers and plain integers are accepted as coordinates")
    func int64Wrapper() async throws {
        let body = #"{"data":{"text":"hi","kind":"shout","lat":{"@type":"\#(Self.int64)","value":"37"},"lng":{"@type":"\#(Self.int64)","value":"-122"}}}"#
        let r = await f.post(body, token: try f.token("ios"))
        let id = try result(r).messageId
        let message = try f.db.collection("messages").document(id).get()
        #expect(message.get("lat") == .integer(37))
        #expect(message.get("lng") == .integer(-122))
        let presence = try f.db.collection("presence").document("ios").get()
        #expect(presence.get("lat") == .integer(37))
    }

    @Test("unit: JSText.trim follows ECMAScript, not Foundation")
    func jsTrim() {
        #expect(JSText.trim("\u{FEFF} a b \u{2029}") == "a b")
        #expect(JSText.trim("\u{85}a\u{85}") == "\u{85}a\u{85}")
        #expect(JSText.trim(" \u{200B} ") == "\u{200B}")
        #expect(JSText.trim("\n\r\t ") == "")
        #expect(JSText.length("a😀") == 3)
    }
}

@Test("unit: the cooldown compares whole milliseconds: 4.999 s is within, 5.000 s is not")
func cooldownMillis() {
    let last = Timestamp(seconds: 100, nanos: 123_456_789)
    #expect(SendMessage.withinCooldown(lastSentAt: last, now: Timestamp(seconds: 105, nanos: 122_999_999)))
    #expect(!SendMessage.withinCooldown(lastSentAt: last, now: Timestamp(seconds: 105, nanos: 123_000_000)))
    #expect(SendMessage.withinCooldown(lastSentAt: last, now: last))
    #expect(!SendMessage.withinCooldown(lastSentAt: last, now: Timestamp(seconds: 200, nanos: 0)))
}
