extension DemoReport {
    /// The report as the console shows it: emulators, cast, timeline (with each message's
    /// audience), every feed, the FCM outbox, the unregistered token, then the checks.
    /// Deterministic apart from ports, account ids and message ids.
    public var text: String {
        var lines: [String] = []
        lines.append("Shouts & Whispers on Hearth: an afternoon around the World Clock, Alexanderplatz, Berlin")
        var endpoints = ["firestore \(ports.firestore)"]
        if let p = ports.functions { endpoints.append("functions \(p)") }
        if let p = ports.auth { endpoints.append("auth \(p)") }
        if let p = ports.hub { endpoints.append("hub \(p)") }
        lines.append("project \(project), in memory; ports: " + endpoints.joined(separator: ", "))
        lines.append("")
        lines.append("Signed in with Google through the Auth emulator (accounts:signInWithIdp):")
        for m in members {
            let token = m.person.fcmToken.map { "token \($0)" } ?? "no token"
            let note = m.person.note.map { "  (\($0))" } ?? ""
            lines.append(
                "  " + Self.pad(m.person.name, 15) + Self.pad(m.person.place, 20) + Self.pad(token, 27) + "uid \(m.uid)"
                    + note)
        }
        lines.append("")
        lines.append("What happened:")
        for (i, event) in events.enumerated() {
            lines += eventLines(event, number: i + 1)
        }
        lines.append("")
        lines.append("Feeds (users/{uid}/feed by sentAt desc, each read with its owner's ID token through the rules):")
        for m in members {
            lines.append("  " + m.person.name)
            let entries = feeds[m.person.key] ?? []
            if entries.isEmpty { lines.append("    (nothing)") }
            for e in entries {
                let from = e.isOwn ? "(own)" : (e.senderName ?? "(no name)")
                lines.append(
                    "    " + Self.pad(e.kind, 9) + Self.pad(from, 15) + Self.padLeft("\(e.distanceM) m", 7)
                        + "  \"\(e.text)\"")
            }
        }
        lines.append("")
        lines.append("FCM outbox (GET /emulator/v1/projects/\(project)/fcm/outbox), oldest first:")
        if outbox.isEmpty { lines.append("  (empty)") }
        for push in outbox {
            lines.append("  " + Self.pad(push.token, 12) + Self.pad(push.title, 28) + "\"\(push.body)\"")
        }
        if let t = unregisteredToken {
            lines.append("")
            lines.append("Unregistered token:")
            let before = t.before.map { "\"\($0)\"" } ?? "missing"
            lines.append(
                "  \(t.person.name)'s presence fcmToken (read with Bearer owner): \(before) before the shout, "
                    + "\(t.after) after it.")
            lines.append("  FCM answered UNREGISTERED (no outbox entry), sendMessage cleared the token, the shout succeeded.")
        }
        lines.append("")
        if surprises.isEmpty {
            lines.append("Every expectation held (audiences, own copies, rate limit, pushes, token cleanup).")
        } else {
            lines.append("SURPRISES (\(surprises.count)):")
            lines += surprises.map { "  - " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// The lines of one timeline entry.
    private func eventLines(_ event: Event, number: Int) -> [String] {
        switch event {
        case .arrived(let people) where people.count == 1:
            let p = people[0]
            return ["  \(number). \(p.name) arrives, \(p.place): first heartbeat and token save, as above."]
        case .arrived(let people):
            let names = people.map(\.name).joined(separator: ", ")
            return [
                "  \(number). Phones report in: \(names).",
                "     Each writes a heartbeat {lat, lng, geohash} + updatedAt = server time (merge) and saves its token,",
                "     through the rules with the user's ID token.",
            ]
        case .sent(let s):
            let verb = s.kind == .shout ? "shouts" : "whispers"
            var lines = ["  \(number). \(s.sender.name) \(verb) \"\(s.text)\" (\(s.sender.place))"]
            if let id = s.messageID {
                let audience = recipients(of: id).map { "\($0.person.name) \($0.distanceM) m" }
                let list = audience.isEmpty ? "nobody else" : audience.joined(separator: ", ")
                lines.append("     -> messageId \(id), recipientCount \(s.recipientCount ?? -1): \(list)")
            } else {
                lines.append(
                    "     -> refused: HTTP \(s.httpStatus) \(s.errorStatus ?? "?"): \(s.errorMessage ?? "")")
            }
            return lines
        }
    }

    /// `s` followed by spaces up to `width` characters (at least one space).
    static func pad(_ s: String, _ width: Int) -> String {
        s + String(repeating: " ", count: max(1, width - s.count))
    }

    /// `s` preceded by spaces up to `width` characters.
    static func padLeft(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - s.count)) + s
    }
}
