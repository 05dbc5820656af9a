import FirestoreEngine
import FirestoreModel
import FirestoreRPC
import GoogleWire
import HTTPServer
import ProtoWire
import Synchronization

/// WebChannel on the Firestore port: `…/google.firestore.v1.Firestore/Listen/channel` and
/// `…/Write/channel`, the transport of the Firebase JS SDK in a browser (streaming, and long
/// polling with `experimentalForceLongPolling` or when auto-detection finds buffering).
///
/// Requests, all with `VER=8` and `database=projects/{p}/databases/{d}`:
/// * open — `POST` without `SID`: a form with `headers=<Name:value lines>` (the stream's
///   `Authorization`), `count`, `ofs` and `req<i>___data__=<request JSON>`; answered with the
///   handshake array `[[0,["c",SID,"",8,12,30000]]]`;
/// * forward — `POST` with `SID`: more maps; answered `[1,lastArrayId,outstandingBytes]`;
/// * back channel — `GET` with `SID`, `RID=rpc`, `AID` (last array processed), `CI` (0
///   streams, 1 answers once), `TYPE=xmlhttp`: length-prefixed batches of arrays;
/// * `TYPE=terminate` with `SID`: the client closed the stream.
/// A request naming a session that does not exist (never did, ended, or was abandoned) gets
/// 400 `Unknown SID`, which the client treats as fatal and reopens the stream.
///
/// One engine task per session runs the same `ListenStream`/`WriteStream` as gRPC. A session
/// with no back channel and no request for ``abandonAfter`` is freed and its stream ended.
/// Source: Tests/WebClients/PROTOCOL.md; closure-library `goog/labs/net/webchannel`;
/// firebase-js-sdk `platform/browser/webchannel_connection.ts`.
public final class WebChannelService: Sendable {
    /// A session with no back channel and no request for this long is abandoned.
    static let abandonAfter: Duration = .seconds(60)
    /// A back channel silent this long gets a `noop` (well within the client's 45 s timeout).
    static let keepAliveAfter: Duration = .seconds(25)
    /// How often sessions are checked.
    static let checkInterval: Duration = .seconds(5)
    /// At most this many maps in one POST.
    static let maxMapsPerRequest = 1000
    /// At most this many sessions at once (every tab holds two); beyond it an opening POST
    /// gets 503 and the client retries with backoff.
    static let maxSessions = 20_000

    private let engine: FirestoreEngine
    private let sessions = Mutex<[String: WebChannelSession]>([:])
    private let checker = Mutex<Task<Void, Never>?>(nil)

    /// A service running streams on `engine`.
    public init(engine: FirestoreEngine) {
        self.engine = engine
    }

    deinit {
        checker.withLock { $0?.cancel() }
    }

    /// The streaming method whose channel `path` is, or nil.
    public static func method(forPath path: String) -> FirestoreMethod? {
        for method in [FirestoreMethod.listen, .write] where method.webChannelPath == path { return method }
        return nil
    }

    /// Sessions open now.
    public var sessionCount: Int { sessions.withLock { $0.count } }

    /// Answers one WebChannel request for `method` (`listen` or `write`).
    public func handle(_ request: HTTPRequest, method: FirestoreMethod) -> HTTPResponse {
        let now = ContinuousClock.now
        let sid = request.queryItem("SID")
        if request.queryItem("TYPE") == "terminate" {
            if let sid, let session = sessions.withLock({ $0.removeValue(forKey: sid) }) { session.shutDown(now: now) }
            return Self.text(200, [])
        }
        guard let sid else {
            guard request.method == "POST" else { return Self.badRequest("A new channel is opened with POST.") }
            return open(request, method: method, now: now)
        }
        guard let session = sessions.withLock({ $0[sid] }) else { return Self.unknownSID }
        if request.method == "GET" {
            guard request.queryItem("RID") == "rpc" else { return Self.badRequest("A back channel has RID=rpc.") }
            let acknowledged = request.queryItem("AID").flatMap { Int($0) } ?? -1
            let longPolling = request.queryItem("CI") == "1"
            guard let body = session.openBackChannel(acknowledged: acknowledged, longPolling: longPolling, now: now)
            else {
                sessions.withLock { _ = $0.removeValue(forKey: sid) }
                return Self.unknownSID
            }
            var response = Self.text(200, [])
            response.headers.add("x-content-type-options", "nosniff")
            response.headers.add("cache-control", "private, max-age=0")
            response.bodyStream = body
            return response
        }
        guard request.method == "POST" else { return Self.badRequest("Unsupported method \(request.method).") }
        let form: Form
        do throws(FirestoreError) { form = try Self.form(request) } catch { return Self.badRequest(error.message) }
        guard session.receive(maps: form.maps, offset: form.offset, now: now) else {
            sessions.withLock { _ = $0.removeValue(forKey: sid) }
            return Self.unknownSID
        }
        return Self.text(200, session.forwardAnswer(acknowledged: request.queryItem("AID").flatMap { Int($0) }))
    }

    /// Ends every session (server shutdown).
    public func shutDown() {
        let all = sessions.withLock { s -> [WebChannelSession] in
            defer { s = [:] }
            return Array(s.values)
        }
        let now = ContinuousClock.now
        for session in all { session.shutDown(now: now) }
        checker.withLock { $0?.cancel() }
    }

    // MARK: - Opening

    private func open(_ request: HTTPRequest, method: FirestoreMethod, now: ContinuousClock.Instant) -> HTTPResponse {
        let form: Form
        do throws(FirestoreError) { form = try Self.form(request) } catch { return Self.badRequest(error.message) }
        let database = request.queryItem("database").flatMap { try? FirestoreProto.databaseID(fromName: $0) }
        let session = WebChannelSession(id: Self.newSessionID(), database: database, now: now)
        let admitted = sessions.withLock { s -> Bool in
            guard s.count < Self.maxSessions else { return false }
            s[session.id] = session
            return true
        }
        guard admitted else { return Self.text(503, Array("Too many open channels; retry later.\n".utf8)) }
        startChecking()
        let authorization = form.headers["authorization"]
        let auth = Result { () throws(FirestoreError) in try BearerToken.authContext(fromHeader: authorization) }
        let engine = self.engine
        // Unstructured on purpose: the stream outlives the request that opened it; it ends
        // when the client terminates the session, abandons it, or the stream fails.
        Task {
            var failure: FirestoreError?
            do throws(FirestoreError) {
                let transport = WebChannelTransport(session: session)
                switch method {
                case .listen: try await ListenStream(transport: transport, engine: engine, auth: try auth.get()).run()
                default: try await WriteStream(transport: transport, engine: engine, auth: try auth.get()).run()
                }
            } catch {
                failure = error
            }
            session.end(error: failure, now: .now)
        }
        session.receive(maps: form.maps, offset: form.offset, now: now)
        var handshake = [UInt8]("[[0,".utf8)
        handshake.append(contentsOf: WebChannelWire.handshake(sid: session.id))
        handshake.append(contentsOf: "]]".utf8)
        return Self.text(200, WebChannelWire.framed(handshake))
    }

    /// 16 random bytes in base64, as the emulator's session ids look.
    private static func newSessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    // MARK: - Housekeeping

    private func startChecking() {
        checker.withLock { task in
            guard task == nil else { return }
            // Unstructured on purpose: it lives as long as the service (cancelled by
            // `shutDown` or deinit) and holds it weakly.
            task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.checkInterval)
                    guard let self else { return }
                    self.checkSessions(now: .now)
                }
            }
        }
    }

    /// Sends keep-alives, frees abandoned sessions and those that are over.
    func checkSessions(now: ContinuousClock.Instant) {
        let all = sessions.withLock { Array($0.values) }
        var removed: [String] = []
        for session in all {
            let check = session.check(now: now, keepAliveAfter: Self.keepAliveAfter, abandonAfter: Self.abandonAfter)
            if session.isFinished || check == .remove {
                removed.append(session.id)
            }
        }
        if !removed.isEmpty { sessions.withLock { s in for id in removed { s[id] = nil } } }
    }

    // MARK: - Forms and answers

    /// A POST's form: its maps (`req<i>___data__`, i < count) from map `offset` on, and the
    /// opening POST's `headers`.
    struct Form {
        var offset = 0
        var maps: [String] = []
        var headers: [String: String] = [:]
    }

    /// - Throws: `.invalidArgument` for a count or offset that is not a number, too many
    ///   maps, or a map without its `__data__`.
    static func form(_ request: HTTPRequest) throws(FirestoreError) -> Form {
        var form = Form()
        var items: [String: String] = [:]
        for item in request.formItems { items[item.name] = item.value }
        let count = try items["count"].map { (text) throws(FirestoreError) in
            guard let n = Int(text), (0...maxMapsPerRequest).contains(n) else {
                throw .invalidArgument("Bad count \"\(text)\".")
            }
            return n
        } ?? 0
        if let text = items["ofs"] {
            guard let n = Int(text), n >= 0 else { throw .invalidArgument("Bad ofs \"\(text)\".") }
            form.offset = n
        }
        for i in 0..<count {
            guard let data = items["req\(i)___data__"] else { throw .invalidArgument("Map \(i) has no data.") }
            form.maps.append(data)
        }
        if let headers = items["headers"] { form.headers = WebChannelWire.initHeaders(headers) }
        return form
    }

    static func text(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["content-type": "text/plain; charset=utf-8"], body: body)
    }

    static func badRequest(_ message: String) -> HTTPResponse { text(400, Array("Bad Request: \(message)\n".utf8)) }

    /// The answer for a session that does not exist; the client looks for `Unknown SID` after
    /// the start of the body.
    static var unknownSID: HTTPResponse {
        HTTPResponse(
            status: 400, headers: ["content-type": "text/html; charset=utf-8"],
            body: Array("<html><body>Unknown SID</body></html>\n".utf8))
    }
}
