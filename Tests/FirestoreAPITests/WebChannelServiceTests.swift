import DocumentStore
import FirestoreEngine
import FirestoreRPC
import GoogleWire
@testable import HTTPServer
import Testing

@testable import FirestoreAPI

/// WebChannel sessions over time: keep-alives on a silent back channel, abandoned sessions
/// freed, the session cap, and the framing helpers. The protocol itself is driven end to end
/// in Tests/Interop/test_webchannel.py.
@Suite struct WebChannelServiceTests {
    static let database = "projects/demo-wc/databases/(default)"

    func open(_ service: WebChannelService, method: FirestoreMethod = .listen) -> String? {
        let body = "count=1&ofs=0&req0___data__=" + #"{"database":"\#(Self.database)"}"#
        let response = service.handle(
            HTTPRequest(
                method: "POST", target: "/google.firestore.v1.Firestore/Listen/channel?VER=8&RID=1&CVER=22",
                body: Array(body.utf8)),
            method: method)
        let text = String(decoding: response.body, as: UTF8.self)
        guard response.status == 200, let start = text.firstIndex(of: "["),
            case .array(let arrays)? = try? JSONValue.parse(String(text[start...])),
            case .array(let first)? = arrays.first, case .array(let handshake)? = first.last,
            case .string(let sid)? = handshake.dropFirst().first
        else { return nil }
        return sid
    }

    func backChannel(_ service: WebChannelService, sid: String) -> HTTPResponse {
        let escaped = sid.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "=", with: "%3D")
            .replacingOccurrences(of: "/", with: "%2F")
        let target = "/google.firestore.v1.Firestore/Listen/channel?VER=8&RID=rpc&SID=\(escaped)&AID=0&CI=0&TYPE=xmlhttp"
        return service.handle(HTTPRequest(method: "GET", target: target), method: .listen)
    }

    @Test func abandonedSessionsAreFreedAndLiveOnesKept() throws {
        let service = WebChannelService(engine: try FirestoreEngine(store: InMemoryDocumentStore()))
        let idle = try #require(open(service))
        let live = try #require(open(service))
        #expect(idle != live && service.sessionCount == 2)
        let channel = backChannel(service, sid: live)
        #expect(channel.status == 200 && channel.bodyStream != nil)
        service.checkSessions(now: .now + .seconds(30))
        #expect(service.sessionCount == 2)
        service.checkSessions(now: .now + WebChannelService.abandonAfter + .seconds(1))
        #expect(service.sessionCount == 1)  // The one without a back channel.
        #expect(backChannel(service, sid: idle).status == 400)
        service.shutDown()
        #expect(service.sessionCount == 0)
        #expect(channel.bodyStream?.isClosed == true)
    }

    @Test func silentBackChannelGetsANoop() async throws {
        let service = WebChannelService(engine: try FirestoreEngine(store: InMemoryDocumentStore()))
        let sid = try #require(open(service))
        let body = try #require(backChannel(service, sid: sid).bodyStream)
        service.checkSessions(now: .now + WebChannelService.keepAliveAfter + .seconds(1))
        var text = ""
        while !text.contains("noop") {
            guard let chunks = await body.next() else { break }
            text += chunks.map { String(decoding: $0, as: UTF8.self) }.joined()
        }
        #expect(text.hasSuffix(#",["noop"]]]"#))
        service.shutDown()
    }

    @Test func framesCountUTF16Units() {
        #expect(WebChannelWire.utf16Length(Array("aé😀".utf8)) == 4)
        #expect(WebChannelWire.framed(Array("[\"😀\"]".utf8)) == Array("6\n[\"😀\"]".utf8))
        #expect(
            WebChannelWire.initHeaders("Authorization:Bearer x\r\nX-Goog-Api-Client: gl-js/ fire/10\r\n")
                == ["authorization": "Bearer x", "x-goog-api-client": "gl-js/ fire/10"])
    }
}
