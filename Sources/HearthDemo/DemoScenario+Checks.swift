extension DemoScenario {
    /// Every way `report` differs from the story the script expects (docs/app/shouts-and-whispers.md §1 rules
    /// 1–5, §4 steps 3 and 7):
    ///
    /// * a send with an expected audience answered 200, reached exactly that audience
    ///   (`recipientCount` and feed copies), gave the sender an own copy (`isOwn`, 0 m), and
    ///   pushed exactly the audience's registered tokens — never the sender's;
    /// * a send without one (the second within 5 s) answered 429 RESOURCE_EXHAUSTED;
    /// * no feed holds any other message;
    /// * the unregistered token was in presence before and is null after.
    static func check(_ report: DemoReport, sends: [(DemoReport.Send, expected: [DemoPerson]?)]) -> [String] {
        var surprises: [String] = []
        var delivered: Set<String> = []
        for (send, expected) in sends {
            let what = "\(send.sender.name)'s \(send.kind.rawValue) \"\(send.text)\""
            guard let expected else {
                if send.httpStatus != 429 || send.errorStatus != "RESOURCE_EXHAUSTED" {
                    surprises.append(
                        "\(what) should be refused with 429 RESOURCE_EXHAUSTED, got HTTP \(send.httpStatus) "
                            + "\(send.errorStatus ?? "")")
                }
                if let id = send.messageID { delivered.insert(id) }
                continue
            }
            guard send.httpStatus == 200, let id = send.messageID else {
                surprises.append("\(what) failed: HTTP \(send.httpStatus) \(send.errorStatus ?? "")")
                continue
            }
            delivered.insert(id)
            let expectedNames = Set(expected.map(\.name))
            let got = Set(report.recipients(of: id).map(\.person.name))
            if got != expectedNames {
                surprises.append("\(what) reached \(got.sorted()), expected \(expectedNames.sorted())")
            }
            if send.recipientCount != expected.count {
                surprises.append("\(what) answered recipientCount \(send.recipientCount ?? -1), expected \(expected.count)")
            }
            let own = report.feeds[send.sender.key]?.first { $0.messageID == id }
            if own?.isOwn != true || own?.distanceM != 0 {
                surprises.append("\(what): the sender's own copy is missing or not isOwn at 0 m")
            }
            let pushed = report.outbox.filter { $0.messageID == id }.map(\.token)
            let registered = expected.compactMap(\.fcmToken).filter { !$0.hasPrefix("unregistered-") }
            if pushed.sorted() != registered.sorted() {
                surprises.append("\(what) pushed to \(pushed.sorted()), expected \(registered.sorted())")
            }
            if let token = send.sender.fcmToken, pushed.contains(token) {
                surprises.append("\(what) was pushed to its own sender")
            }
        }
        for (key, entries) in report.feeds {
            for e in entries where !delivered.contains(e.messageID) {
                surprises.append("the feed of \(key) holds unexpected message \(e.messageID)")
            }
        }
        if let t = report.unregisteredToken {
            if t.before != t.person.fcmToken {
                surprises.append("\(t.person.name)'s token was \(t.before ?? "missing") before the shout")
            }
            if t.after != "null" {
                surprises.append("\(t.person.name)'s unregistered token is \(t.after) after the shout, expected null")
            }
        }
        return surprises
    }
}
