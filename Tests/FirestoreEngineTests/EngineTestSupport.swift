import DocumentStore
import FirestoreModel
import Synchronization

@testable import FirestoreEngine

let db = DatabaseID(project: "demo-test")
let alice = AuthContext.user(uid: "alice", token: ["sub": .string("alice")])

/// A clock that advances one millisecond per reading, so tests see distinct times.
final class TestClock: Sendable {
    let micros = Atomic<Int64>(1_700_000_000_000_000)
    var now: @Sendable () -> Timestamp {
        { [self] in Timestamp(microseconds: micros.add(1000, ordering: .relaxed).newValue) }
    }
}

func makeEngine(policy: any AccessPolicy = OpenAccessPolicy()) throws -> FirestoreEngine {
    try FirestoreEngine(store: InMemoryDocumentStore(), policy: policy, clock: TestClock().now)
}

func path(_ s: String) -> ResourcePath { ResourcePath(relative: s) }

func set(_ p: String, _ fields: FieldMap) -> Write {
    Write(operation: .update(path: path(p), fields: fields))
}

/// A policy from a closure, recording what it was asked.
final class ClosurePolicy: AccessPolicy, Sendable {
    let decide: @Sendable ([AccessRequest], any AccessLookup) -> FirestoreError?
    init(_ decide: @escaping @Sendable ([AccessRequest], any AccessLookup) -> FirestoreError?) { self.decide = decide }
    func check(_ requests: [AccessRequest], lookup: any AccessLookup) -> FirestoreError? { decide(requests, lookup) }
}
