import FirestoreModel
import GoogleWire
import Synchronization
import Testing

@testable import FirestoreAPI
@testable import SecurityRules

/// The requests the rules decided, as the Emulator UI lists them (issue 15).
@Suite struct RequestJournalTests {
    func record(_ journal: RequestJournal, _ project: String, _ id: String, allowed: Bool) {
        let request = RulesRequest(
            database: DatabaseID(project: project), method: .get, path: ResourcePath(["notes", id]), auth: .unauthenticated,
            time: Timestamp(seconds: 1_767_225_600, nanos: 0))
        let outcome = StatementOutcome(
            matchPath: "/databases/{database}/documents/notes/{id}", methods: [.read],
            position: SourcePosition(line: 5, column: 22, offset: 0), result: allowed ? .granted : .denied,
            culprits: allowed ? [] : ["L5:22 `false` → false"])
        let explanation = RulesExplanation(
            method: .get, path: "/databases/(default)/documents/notes/\(id)", statements: [outcome])
        journal.record(project: project, request: request, decision: RulesDecision(allowed: allowed, explanation: explanation))
    }

    @Test func keepsTheLatestOfAllProjectsTogetherOldestFirst() {
        let journal = RequestJournal(capacity: 3)
        record(journal, "a", "1", allowed: true)
        record(journal, "b", "2", allowed: false)
        record(journal, "a", "3", allowed: false)
        record(journal, "a", "4", allowed: true)
        record(journal, "b", "5", allowed: true)
        // The ring holds ids 3, 4, 5: project a keeps 3 and 4, project b only 5.
        #expect(journal.entries(project: "a").map(\.id) == [3, 4])
        #expect(journal.entries(project: "b").map(\.id) == [5])
        #expect(journal.entries(project: "a", after: 3).map(\.id) == [4])
        journal.clear(project: "a")
        #expect(journal.entries(project: "a").isEmpty)
        #expect(journal.entries(project: "b").map(\.id) == [5])
        record(journal, "a", "6", allowed: true)
        record(journal, "a", "7", allowed: true)
        record(journal, "a", "8", allowed: true)
        #expect(journal.entries(project: "a").map(\.id) == [6, 7, 8])
        #expect(journal.entries(project: "b").isEmpty)
    }

    @Test func anEntryNamesItsVerdictAndWhatDecidedIt() throws {
        let journal = RequestJournal()
        let heard = Mutex<[Int]>([])
        let token = journal.subscribe { event in
            if case .request(let e) = event { heard.withLock { $0.append(e.id) } }
        }
        record(journal, "p", "1", allowed: false)
        record(journal, "p", "2", allowed: true)
        journal.unsubscribe(token)
        record(journal, "p", "3", allowed: true)
        #expect(heard.withLock { $0 } == [1, 2])
        let list = journal.json(project: "p")["requests"]
        guard case .array(let entries)? = list else { Issue.record("no requests array"); return }
        #expect(entries[0]["verdict"] == .string("deny"))
        #expect(entries[0]["message"] == .string("\nfalse for 'get' @ L5"))
        #expect(entries[0]["grantedBy"] == .null)
        #expect(entries[0]["statements"]?.firstElement?["culprits"] == .array([.string("L5:22 `false` → false")]))
        #expect(entries[1]["verdict"] == .string("allow"))
        #expect(entries[1]["message"] == .string(""))
        #expect(entries[1]["grantedBy"]?["line"] == .integer(5))
        #expect(entries[1]["path"] == .string("/databases/(default)/documents/notes/2"))
        #expect(entries[1]["uid"] == .null)
    }
}

extension JSONValue {
    fileprivate var firstElement: JSONValue? { if case .array(let a) = self { a.first } else { nil } }
}
