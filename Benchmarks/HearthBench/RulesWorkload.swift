import FirestoreModel
import Foundation
import SecurityRules

/// The rules decisions Issue 3 measures: the presence write rule (docs/app/shouts-and-whispers.md §3, §5) on a
/// create and on an update, and a `get()`-heavy rule reading three documents.
///
/// `Benchmarks/cel/rules_baseline.py` restates each condition in CEL with the same data; keep
/// the two in step.
enum RulesWorkload {
    /// One benchmarked decision.
    struct Case {
        /// The case name shared with the Python baseline (`presence-create`, …).
        var name: String
        /// The label in the report.
        var label: String
        /// The compiled rules.
        var ruleset: Ruleset
        /// The request decided.
        var request: RulesRequest
    }

    /// The stored documents `get()` and `exists()` read: a dictionary lookup.
    struct Documents: RulesDocumentAccess {
        /// Documents by path relative to the database's documents root.
        var byPath: [ResourcePath: Document]
        /// The stored document, nil when missing.
        func get(_ path: ResourcePath) throws -> Document? { byPath[path] }
        /// Same as `get`: the benchmark's requests are single writes.
        func getAfter(_ path: ResourcePath) throws -> Document? { byPath[path] }
    }

    /// A representative of the app's rules (owner check, `keys().hasOnly`, type checks, ranges,
    /// `request.time`, `diff().affectedKeys()`), used for the presence cases when the tree has
    /// no `firebase/firestore.rules`; plus the `get()`-heavy rule, always from here.
    static let representativeRules = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            function signedInAs(uid) {
              return request.auth != null && request.auth.uid == uid;
            }

            match /presence/{uid} {
              function shapeOK(d) {
                return (!('lat' in d) || (d.lat is number && d.lat >= -90 && d.lat <= 90))
                  && (!('lng' in d) || (d.lng is number && d.lng >= -180 && d.lng <= 180))
                  && (!('geohash' in d) || (d.geohash is string && d.geohash.size() <= 12))
                  && (!('updatedAt' in d) || d.updatedAt is timestamp)
                  && (!('fcmToken' in d) || d.fcmToken == null
                      || (d.fcmToken is string && d.fcmToken.size() <= 4096));
              }
              function stamped(touched) {
                return !touched.hasAny(['lat', 'lng', 'geohash', 'updatedAt'])
                  || request.resource.data.updatedAt == request.time;
              }
              allow read: if false;
              allow create: if signedInAs(uid)
                && request.resource.data.keys().hasOnly(['lat', 'lng', 'geohash', 'updatedAt', 'fcmToken'])
                && shapeOK(request.resource.data)
                && stamped(request.resource.data.keys());
              allow update: if signedInAs(uid)
                && request.resource.data.keys().hasOnly(['lat', 'lng', 'geohash', 'updatedAt', 'fcmToken', 'lastSentAt'])
                && !request.resource.data.diff(resource.data).affectedKeys().hasAny(['lastSentAt'])
                && shapeOK(request.resource.data)
                && stamped(request.resource.data.diff(resource.data).affectedKeys());
              allow delete: if signedInAs(uid);
            }

            match /rooms/{room}/messages/{message} {
              function roomData() {
                return get(/databases/$(database)/documents/rooms/$(room)).data;
              }
              allow create: if request.auth != null
                && request.auth.uid in roomData().members
                && !exists(/databases/$(database)/documents/rooms/$(room)/bans/$(request.auth.uid))
                && get(/databases/$(database)/documents/users/$(request.auth.uid)).data.role in ['member', 'admin']
                && roomData().open == true
                && request.resource.data.senderId == request.auth.uid
                && request.resource.data.text is string && request.resource.data.text.size() <= 500;
            }
          }
        }
        """

    /// `request.time` of every case: 2026-01-01T12:00:00.123456Z.
    static let time = Timestamp(seconds: 1_767_268_800, nanos: 123_456_000)
    /// The database every case runs in.
    static let database = DatabaseID(project: "bench")
    /// The caller: a Google-signed-in user.
    static let auth = AuthContext.user(
        uid: "alice",
        token: ["sub": .string("alice"), "email": .string("alice@example.com"), "firebase": .map(["sign_in_provider": .string("google.com")])])
    /// A 152-character push token.
    static let token = String(repeating: "f", count: 152)

    /// The documents `get()` reads: the room (20 members, alice last) and alice's profile.
    static let documents = Documents(byPath: [
        ResourcePath(["rooms", "r1"]): document(
            ["rooms", "r1"],
            [
                "members": .array((0..<19).map { .string(String(format: "member-%02d", $0)) } + [.string("alice")]),
                "open": .boolean(true), "title": .string("General"),
            ]),
        ResourcePath(["users", "alice"]): document(["users", "alice"], ["role": .string("member"), "name": .string("Alice")]),
    ])

    /// The three cases. Presence rules come from `presenceRules` (the app's file when present).
    /// - Throws: `RulesCompileError` when a rules text does not compile.
    static func cases(presenceRules: String, presenceFileName: String) throws(RulesCompileError) -> [Case] {
        let presence = try Ruleset(source: presenceRules, fileName: presenceFileName)
        let representative = try Ruleset(source: representativeRules, fileName: "representative.rules")
        let path = ["presence", "alice"]
        let heartbeat: FieldMap = [
            "lat": .double(37.7749), "lng": .double(-122.4194), "geohash": .string("9q8yyk8yt"), "updatedAt": .timestamp(time),
            "fcmToken": .string(token),
        ]
        let stored: FieldMap = [
            "lat": .double(37.7712), "lng": .double(-122.4131), "geohash": .string("9q8yym2c1"), "fcmToken": .string(token),
            "updatedAt": .timestamp(Timestamp(seconds: time.seconds - 60, nanos: time.nanos)),
            "lastSentAt": .timestamp(Timestamp(seconds: time.seconds - 3600, nanos: time.nanos)),
        ]
        let merged = stored.merging(heartbeat) { _, new in new }
        let messagePath = ["rooms", "r1", "messages", "m1"]
        return [
            Case(
                name: "presence-create", label: "presence create (heartbeat)", ruleset: presence,
                request: RulesRequest(
                    database: database, method: .create, path: ResourcePath(path), auth: auth, time: time,
                    requestResource: document(path, heartbeat))),
            Case(
                name: "presence-update", label: "presence update (heartbeat)", ruleset: presence,
                request: RulesRequest(
                    database: database, method: .update, path: ResourcePath(path), auth: auth, time: time,
                    resource: document(path, stored), requestResource: document(path, merged))),
            Case(
                name: "get-heavy", label: "get()-heavy create (3 reads)", ruleset: representative,
                request: RulesRequest(
                    database: database, method: .create, path: ResourcePath(messagePath), auth: auth, time: time,
                    requestResource: document(
                        messagePath, ["senderId": .string("alice"), "text": .string("hello from the benchmark"), "sentAt": .timestamp(time)]))),
        ]
    }

    private static func document(_ path: [String], _ fields: FieldMap) -> Document {
        Document(path: ResourcePath(path), fields: fields, createTime: time, updateTime: time)
    }
}
