import GoogleWire
import ShoutsBackend

/// The script of `hearth demo`: the app's traffic for the people of `DemoCast`, played
/// against running emulators over public interfaces only, then read back into a
/// `DemoReport` and checked against the product contract (docs/app/shouts-and-whispers.md §1, §4, §5).
///
/// 1. Everybody signs in with Google (Auth emulator).
/// 2. Everybody but Hiro reports in: heartbeat and token save through the rules (Dmitri
///    saves his token first, so the token-only write creates his presence document).
/// 3. Ada whispers from the World Clock: Bruno (30 m) and Chiara (120 m) receive it; Dmitri
///    (160 m) does not.
/// 4. Chiara shouts from 120 m east: Ada, Bruno, Dmitri, Emeka, Fatima receive it; Grace
///    (about 2 km away) does not. Dmitri's token is unregistered: it is cleared from his
///    presence, and the send still succeeds.
/// 5. Chiara shouts again at once: RESOURCE_EXHAUSTED (HTTP 429), nothing delivered.
/// 6. Hiro reports in for the first time, 60 m west: the shout does not reach him
///    afterwards (the audience is fixed at send time).
/// 7. Bruno whispers: Ada, Chiara and now Hiro receive it.
///
/// Pushes go to every recipient with a token except the sender, titled `Whisper from …` /
/// `Shout from …`.
public struct DemoScenario: Sendable {
    let client: DemoAppClient

    /// A scenario against emulators listening on `host` at `ports`, serving `project`.
    public init(host: String, ports: DemoPorts, project: String) {
        client = DemoAppClient(http: DemoHTTPClient(host: host), ports: ports, project: project)
    }

    /// Plays the script and reads the outcome back.
    /// - Returns: the report; its `surprises` are empty when Hearth behaved as specified.
    /// - Throws: `DemoError` when a step the app relies on fails outright (sign-in, a
    ///   heartbeat refused by the rules, a feed query refused, an unreachable endpoint).
    public func play() async throws -> DemoReport {
        var report = DemoReport(project: client.project, ports: client.ports)
        var sessions: [String: DemoAppClient.Session] = [:]
        for person in DemoCast.everybody {
            let session = try await client.signInWithGoogle(person)
            sessions[person.key] = session
            report.members.append(.init(person: person, uid: session.uid))
        }
        func session(_ p: DemoPerson) throws -> DemoAppClient.Session {
            guard let s = sessions[p.key] else { throw DemoError("\(p.name) is not signed in") }
            return s
        }

        let early = DemoCast.everybody.filter { $0 != DemoCast.hiro }
        for person in early {
            try await reportIn(person, session(person), tokenFirst: person == DemoCast.dmitri)
        }
        report.events.append(.arrived(early))
        let dmitri = try session(DemoCast.dmitri)
        let tokenBefore = DemoFields.stringField("fcmToken", of: try await client.presenceAsOwner(dmitri.uid))

        var sends: [(DemoReport.Send, expected: [DemoPerson]?)] = []
        func send(_ p: DemoPerson, _ kind: MessageKind, _ text: String, expecting: [DemoPerson]?) async throws {
            let reply = try await client.sendMessage(
                try session(p), text: text, kind: kind, latitude: p.latitude, longitude: p.longitude)
            let result = reply.json["result"]
            let s = DemoReport.Send(
                sender: p, kind: kind, text: text, httpStatus: reply.status,
                messageID: DemoFields.string(result?["messageId"]),
                recipientCount: DemoFields.number(result?["recipientCount"]).map { Int($0) },
                errorStatus: reply.errorStatus, errorMessage: reply.errorMessage)
            report.events.append(.sent(s))
            sends.append((s, expecting))
        }
        try await send(
            DemoCast.ada, .whisper, "Anyone up for a game of chess by the World Clock?",
            expecting: [DemoCast.bruno, DemoCast.chiara])
        try await send(
            DemoCast.chiara, .shout, "Street band starting at the fountain in ten minutes!",
            expecting: [DemoCast.ada, DemoCast.bruno, DemoCast.dmitri, DemoCast.emeka, DemoCast.fatima])
        try await send(DemoCast.chiara, .shout, "Bring your friends!", expecting: nil)
        try await reportIn(DemoCast.hiro, session(DemoCast.hiro), tokenFirst: false)
        report.events.append(.arrived([DemoCast.hiro]))
        try await send(
            DemoCast.bruno, .whisper, "Getting coffee on the corner, who wants one?",
            expecting: [DemoCast.ada, DemoCast.chiara, DemoCast.hiro])

        for member in report.members {
            report.feeds[member.person.key] = try await client.feed(try session(member.person)).map(Self.feedEntry)
        }
        report.outbox = try await client.outbox().map(Self.push)
        let after = try await client.presenceAsOwner(dmitri.uid)
        report.unregisteredToken = .init(
            person: DemoCast.dmitri, before: tokenBefore, after: Self.describe(DemoFields.field("fcmToken", of: after)))
        report.surprises = Self.check(report, sends: sends)
        return report
    }

    /// A phone reporting in: heartbeat and token save (in either order), each required to
    /// pass the rules.
    /// - Throws: `DemoError` quoting the refusal.
    func reportIn(_ person: DemoPerson, _ session: DemoAppClient.Session, tokenFirst: Bool) async throws {
        func saveToken() async throws {
            guard let token = person.fcmToken else { return }
            let reply = try await client.saveToken(session, token: token)
            guard reply.status == 200 else {
                throw DemoError("\(person.name)'s token save was refused: HTTP \(reply.status) \(reply.text)")
            }
        }
        if tokenFirst { try await saveToken() }
        let reply = try await client.heartbeat(session, latitude: person.latitude, longitude: person.longitude)
        guard reply.status == 200 else {
            throw DemoError("\(person.name)'s heartbeat was refused: HTTP \(reply.status) \(reply.text)")
        }
        if !tokenFirst { try await saveToken() }
    }

    /// A feed document as a report entry.
    static func feedEntry(_ document: JSONValue) -> DemoReport.FeedEntry {
        var isOwn = false
        if case .bool(let b) = DemoFields.field("isOwn", of: document) { isOwn = b }
        return DemoReport.FeedEntry(
            messageID: DemoFields.stringField("messageId", of: document) ?? "?",
            senderName: DemoFields.stringField("senderName", of: document),
            kind: DemoFields.stringField("kind", of: document) ?? "?",
            text: DemoFields.stringField("text", of: document) ?? "",
            distanceM: Int(DemoFields.numberField("distanceM", of: document) ?? -1), isOwn: isOwn)
    }

    /// An outbox message as a report entry.
    static func push(_ message: JSONValue) -> DemoReport.Push {
        DemoReport.Push(
            token: DemoFields.string(message["token"]) ?? "?",
            title: DemoFields.string(message["notification"]?["title"]) ?? "",
            body: DemoFields.string(message["notification"]?["body"]) ?? "",
            messageID: DemoFields.string(message["data"]?["messageId"]) ?? "?")
    }

    /// A field as the report prints it.
    static func describe(_ field: DemoFields.Field) -> String {
        switch field {
        case .missing: return "missing"
        case .null: return "null"
        case .string(let s): return "\"\(s)\""
        case .number(let n): return "\(n)"
        case .bool(let b): return "\(b)"
        case .timestamp(let t): return t
        case .other: return "(other value)"
        }
    }
}
