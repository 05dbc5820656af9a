import AuthEmulator
import DocumentStore
import FirestoreEngine
import FirestoreModel
import Foundation
import Testing

/// One contract for every `UserStore`: the in-memory reference and `DocumentUserStore` over
/// both document stores.
@Suite struct UserStoreContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case inMemory, documentsInMemory, documentsSQLite
        var testDescription: String { rawValue }
    }

    static func make(_ kind: Kind) throws -> (store: any UserStore, close: () -> Void) {
        switch kind {
        case .inMemory: return (InMemoryUserStore(), {})
        case .documentsInMemory:
            return (DocumentUserStore(store: InMemoryDocumentStore(), clock: FirestoreEngine.systemClock), {})
        case .documentsSQLite:
            let s = try SQLiteDocumentStore(inMemory: ())
            return (DocumentUserStore(store: s, clock: FirestoreEngine.systemClock), { s.close() })
        }
    }

    static func sample(_ id: String, email: String?) -> UserRecord {
        var u = UserRecord(localId: id, createdAt: 1_700_000_000_123)
        u.email = email
        u.emailVerified = true
        u.displayName = "User \(id)"
        u.phoneNumber = "+15555550\(id.count)"
        u.passwordHash = "aGFzaA=="
        u.salt = "c2FsdA=="
        u.passwordUpdatedAt = 1_700_000_000_456
        u.validSince = 1_700_000_000
        u.lastLoginAt = 1_700_000_001_000
        u.lastRefreshAt = "2023-11-14T22:13:20.000Z"
        u.customAttributes = #"{"role":"x"}"#
        u.upsertProvider(
            ProviderUserInfo(providerId: "google.com", rawId: "g-\(id)", federatedId: "g-\(id)", email: email))
        u.syncDerivedProviders()
        return u
    }

    @Test(arguments: Kind.allCases) func contract(_ kind: Kind) throws {
        let (store, close) = try Self.make(kind)
        defer { close() }
        let a = Self.sample("bbb", email: "b@x.io")
        let b = Self.sample("aaa", email: "a@x.io")
        try store.put(a, in: "p")
        try store.put(b, in: "p")
        try store.put(Self.sample("other", email: "b@x.io"), in: "q")
        #expect(try store.user(.localId("bbb"), in: "p") == a)
        #expect(try store.user(.email("a@x.io"), in: "p") == b)
        #expect(try store.user(.provider(id: "google.com", rawId: "g-bbb"), in: "p") == a)
        #expect(try store.user(.provider(id: "password", rawId: "a@x.io"), in: "p") == b)
        #expect(try store.user(.phoneNumber(a.phoneNumber ?? ""), in: "p")?.localId != nil)
        #expect(try store.user(.email("none@x.io"), in: "p") == nil)
        #expect(try store.users(in: "p").map(\.localId) == ["aaa", "bbb"])
        var changed = a
        changed.email = "new@x.io"
        changed.syncDerivedProviders()
        try store.put(changed, in: "p")
        #expect(try store.user(.email("b@x.io"), in: "p") == nil)
        #expect(try store.user(.email("new@x.io"), in: "p") == changed)
        try store.delete(localId: "aaa", in: "p")
        #expect(try store.user(.localId("aaa"), in: "p") == nil)
        #expect(try store.config(in: "p") == AuthProjectConfig())
        var config = AuthProjectConfig()
        config.enableImprovedEmailPrivacy = true
        try store.setConfig(config, in: "p")
        try store.deleteAll(in: "p")
        #expect(try store.users(in: "p").isEmpty)
        #expect(try store.config(in: "p") == config)  // settings survive clearing accounts
        #expect(try store.users(in: "q").count == 1)  // projects are separate
    }

    @Test func accountsPersistInTheSQLiteFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-users-\(UUID().uuidString).sqlite"
        ).path
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let user = Self.sample("persist", email: "p@x.io")
        do {
            let s = try SQLiteDocumentStore(path: path)
            try DocumentUserStore(store: s, clock: FirestoreEngine.systemClock).put(user, in: "p")
            s.close()
        }
        let s = try SQLiteDocumentStore(path: path)
        defer { s.close() }
        #expect(
            try DocumentUserStore(store: s, clock: FirestoreEngine.systemClock).user(.email("p@x.io"), in: "p") == user)
    }

    @Test func userInfoJSONRoundTrips() throws {
        let user = Self.sample("json", email: "j@x.io")
        #expect(try UserRecord(json: user.json) == user)
        #expect(try UserRecord(fields: user.fields) == user)
    }
}
