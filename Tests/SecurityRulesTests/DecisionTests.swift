import FirestoreModel
import Foundation
import Testing

@testable import SecurityRules

/// The decision API the Firestore engine calls: messages, batches, budgets, list requests
/// built from structured queries, coverage and concurrency.
struct DecisionTests {
    static let rules = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /rooms/{room} {
              allow get: if request.auth != null;
              allow update: if request.resource.data.n > resource.data.n;
              allow list: if resource.data.open == true && request.query.limit <= 10;
              allow create: if exists(/databases/$(database)/documents/a/$(request.resource.data.k))
                || exists(/databases/$(database)/documents/b/$(request.resource.data.k));
            }
          }
        }
        """

    func doc(_ path: String, _ fields: FieldMap) -> Document {
        Document(path: ResourcePath(relative: path), fields: fields, createTime: testTime, updateTime: testTime)
    }

    @Test func emulatorMessageShape() throws {
        let rs = try Ruleset(source: Self.rules, fileName: "firestore.rules")
        let req = RulesRequest(
            database: testDatabase, method: .update, path: ResourcePath(relative: "rooms/r1"), auth: .user(uid: "u", token: [:]),
            time: testTime,
            resource: doc("rooms/r1", ["n": .integer(5)]), requestResource: doc("rooms/r1", ["n": .integer(4)]))
        let d = rs.decide(req, access: NoDocumentAccess())
        #expect(!d.allowed)
        #expect(d.explanation.emulatorMessage == "\nfalse for 'update' @ L6")
        #expect(
            d.explanation.description.contains(
                "`request.resource.data.n > resource.data.n` → false where `request.resource.data.n` = 4, `resource.data.n` = 5"))
        var unauth = getRequest("rooms/r1", uid: nil)
        unauth.resource = nil
        #expect(rs.decide(unauth, access: NoDocumentAccess()).explanation.emulatorMessage == "\nfalse for 'get' @ L5")
        #expect(
            rs.decide(getRequest("other/x"), access: NoDocumentAccess()).explanation.emulatorMessage == "\nNo matching allow statements")
    }

    /// A set without precondition: the emulator's message first shows its pass over every
    /// create then update statement with `resource` unknown (true shows as false); when that
    /// pass was not conclusive, the real outcomes follow (corpus overlap.c4, d1, h1, h2).
    @Test func upsertDenialMessageListsCreateAndUpdateStatements() throws {
        let rs = try Ruleset(
            source: """
                rules_version = '2';
                service cloud.firestore {
                  match /databases/{database}/documents {
                    match /v/{id} {
                      allow create: if request.resource.data.v == 1;
                      allow update: if request.resource.data.v == 2;
                    }
                    match /w/{id} {
                      allow write: if request.auth.uid == 'alice';
                      allow update: if resource.data.locked == false;
                    }
                    match /c/{id} {
                      allow create: if true;
                    }
                  }
                }
                """, fileName: "firestore.rules")
        func upsert(_ path: String, stored: FieldMap?, _ fields: FieldMap, uid: String = "bob") -> RulesRequest {
            RulesRequest(
                database: testDatabase, method: stored == nil ? .create : .update, path: ResourcePath(relative: path),
                auth: .user(uid: uid, token: [:]), time: testTime, resource: stored.map { doc(path, $0) },
                requestResource: doc(path, fields), isUpsert: true)
        }
        func message(_ r: RulesRequest) -> String {
            let d = rs.decide(r, access: NoDocumentAccess())
            #expect(!d.allowed)
            return d.explanation.emulatorMessage
        }
        // The update statement is true in the first pass (shown false): the real create follows.
        #expect(
            message(upsert("v/n", stored: nil, ["v": .integer(2)]))
                == "\nfalse for 'create' @ L5, false for 'update' @ L6, false for 'create' @ L5")
        #expect(
            message(upsert("v/e", stored: ["v": .integer(0)], ["v": .integer(1)]))
                == "\nfalse for 'create' @ L5, false for 'update' @ L6, false for 'update' @ L6")
        // Every statement false without `resource`: the first pass is the whole message.
        #expect(
            message(upsert("w/e", stored: ["locked": .boolean(true)], [:], uid: "bob"))
                == "\nfalse for 'create' @ L9, false for 'update' @ L9, evaluation error at L10:24 for 'update' @ L10, false for 'update' @ L9, false for 'update' @ L10"
        )
        // No update statement: the first pass's create stands in for "No matching allow statements".
        #expect(message(upsert("c/e", stored: [:], ["x": .integer(1)])) == "\nfalse for 'create' @ L13")
        // With a precondition there is no first pass.
        var plain = upsert("c/e", stored: [:], ["x": .integer(1)])
        plain.isUpsert = false
        #expect(message(plain) == "\nNo matching allow statements")
    }

    @Test func listRequestFromStructuredQuery() throws {
        let rs = try Ruleset(source: Self.rules, fileName: "firestore.rules")
        var q = StructuredQuery(collectionID: "rooms", filter: .field(FieldPath(["open"]), .equal, .boolean(true)), limit: 10)
        let req = RulesRequest(
            database: testDatabase, method: .list, path: ResourcePath(relative: "rooms"), auth: .unauthenticated, time: testTime,
            query: QueryConstraints(q))
        #expect(rs.decide(req, access: NoDocumentAccess()).allowed)
        q.limit = 11
        var tooMany = req
        tooMany.query = QueryConstraints(q)
        #expect(!rs.decide(tooMany, access: NoDocumentAccess()).allowed)
        q.filter = nil
        q.limit = 5
        var unfiltered = req
        unfiltered.query = QueryConstraints(q)
        let d = rs.decide(unfiltered, access: NoDocumentAccess())
        #expect(d.explanation.emulatorMessage == "\nProperty open is undefined on object. for 'list' @ L7")
    }

    /// Counts reads that reach the store.
    final class CountingAccess: RulesDocumentAccess, @unchecked Sendable {
        // Only used from one test thread.
        var reads = 0
        func get(_ path: ResourcePath) throws -> Document? {
            reads += 1
            return nil
        }
        func getAfter(_ path: ResourcePath) throws -> Document? { try get(path) }
    }

    @Test func batchSharesCacheAndBudget() throws {
        let rs = try Ruleset(source: Self.rules, fileName: "firestore.rules")
        func create(_ i: Int, key: String) -> RulesRequest {
            RulesRequest(
                database: testDatabase, method: .create, path: ResourcePath(relative: "rooms/r\(i)"), auth: .unauthenticated,
                time: testTime,
                requestResource: doc("rooms/r\(i)", ["k": .string(key)]))
        }
        // Each create reads two missing documents: 2 reads, denied.
        let access = CountingAccess()
        let same = rs.decide(batch: (0..<5).map { create($0, key: "k") }, access: access)
        #expect(same.allSatisfy { !$0.allowed })
        #expect(access.reads == 2, "repeated paths are cached across the batch")
        // Eleven distinct keys: 22 reads > 20 for the batch.
        let distinct = rs.decide(batch: (0..<11).map { create($0, key: "k\($0)") }, access: CountingAccess())
        #expect(distinct.last?.explanation.failure?.contains("Exceeded the maximum of 20") == true)
        #expect(distinct.first?.explanation.failure == nil)
    }

    @Test func adminNeverAuthenticates() throws {
        let rs = try Ruleset(source: Self.rules, fileName: "firestore.rules")
        var r = getRequest("rooms/r1")
        r.auth = .admin
        #expect(!rs.decide(r, access: NoDocumentAccess()).allowed)
    }

    @Test func coverageCountsAndExports() throws {
        let rs = try Ruleset(source: Self.rules, fileName: "firestore.rules")
        _ = rs.decide(getRequest("rooms/r1"), access: NoDocumentAccess())
        _ = rs.decide(getRequest("rooms/r1", uid: nil), access: NoDocumentAccess())
        let json = try JSONSerialization.jsonObject(with: Data(rs.coverageJSON())) as? [String: Any]
        let entries = json?["entries"] as? [[String: Any]] ?? []
        let cond = entries.first { ($0["text"] as? String) == "request.auth != null" }
        #expect(cond?["evaluations"] as? Int == 2)
        #expect(cond?["trueCount"] as? Int == 1)
        #expect(cond?["falseCount"] as? Int == 1)
        #expect((json?["evaluatedExpressions"] as? Int ?? 0) >= 3)
        let html = rs.coverageHTML()
        #expect(html.contains("allow get: if <span class=\"both\" title=\"evaluated 2×: 1 true, 1 false, 0 errors\"><span class=\"value\""))
        #expect(html.components(separatedBy: "<span").count == html.components(separatedBy: "</span>").count)
        #expect(html.contains("class=\"never\""))
        #expect(html.contains("&gt;"))
        rs.resetCoverage()
        let after = try JSONSerialization.jsonObject(with: Data(rs.coverageJSON())) as? [String: Any]
        #expect(after?["evaluatedExpressions"] as? Int == 0)
    }

    @Test func concurrentDecisionsShareOneRuleset() async throws {
        let rs = try Ruleset(source: Self.rules, fileName: "firestore.rules")
        await withTaskGroup(of: Bool.self) { group in
            for i in 0..<200 {
                group.addTask { rs.decide(getRequest("rooms/r\(i)", uid: i % 2 == 0 ? "u" : nil), access: NoDocumentAccess()).allowed }
            }
            var allowed = 0
            for await a in group where a { allowed += 1 }
            #expect(allowed == 100)
        }
        let json = try JSONSerialization.jsonObject(with: Data(rs.coverageJSON())) as? [String: Any]
        let entries = json?["entries"] as? [[String: Any]] ?? []
        #expect(entries.first { ($0["text"] as? String) == "request.auth != null" }?["evaluations"] as? Int == 200)
    }

    @Test func collectionGroupPathsAndUnboundIds() throws {
        let text = """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /{path=**}/posts/{post} {
                  allow list: if post == 'x' || path.size() >= 0 || true;
                }
              }
            }
            """
        let rs = try Ruleset(source: text, fileName: "cg")
        let q = StructuredQuery(collectionID: "posts", allDescendants: true)
        let req = RulesRequest(
            database: testDatabase, method: .list, path: ResourcePath(relative: "users/u1/posts"), auth: .unauthenticated, time: testTime,
            query: QueryConstraints(q))
        #expect(rs.decide(req, access: NoDocumentAccess()).allowed)
    }
}

struct SnapshotAccessTests {
    @Test func getAfterSeesPendingWritesAndDeletes() throws {
        let a = ResourcePath(relative: "c/a")
        let b = ResourcePath(relative: "c/b")
        let stored = Document(path: a, fields: ["n": .integer(1)], createTime: testTime, updateTime: testTime)
        let written = Document(path: b, fields: ["n": .integer(2)], createTime: testTime, updateTime: testTime)
        let access = RulesSnapshotAccess(before: { $0 == a ? stored : nil }, pendingWrites: [b: .some(written), a: Document?.none])
        #expect(try access.get(a) == stored)
        #expect(try access.get(b) == nil)
        #expect(try access.getAfter(a) == nil)
        #expect(try access.getAfter(b) == written)
        let rs = try Ruleset(
            source: wrapped(
                "!existsAfter(/databases/$(database)/documents/c/a) && getAfter(/databases/$(database)/documents/c/b).data.n == 2"),
            fileName: "t")
        #expect(rs.decide(getRequest("x/y"), access: access).allowed)
    }
}
