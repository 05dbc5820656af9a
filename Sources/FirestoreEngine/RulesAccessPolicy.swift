import FirestoreModel
import SecurityRules

/// The access policy of a compiled `firestore.rules`: every client request's accesses are
/// decided by the `Ruleset`, one batch at a time (shared `get()` budget), and each denial is
/// handed to `onDenial` with its full explanation before the request fails. `onDecision`, when
/// set, sees every verdict reached (grants, then the denial that stops the batch), for the UI's
/// requests view.
/// Source: docs/reference/security-rules.md §6.1, §8.
public struct RulesAccessPolicy: AccessPolicy {
    /// The compiled rules.
    public let ruleset: Ruleset
    /// Receives each denial (request summary and explanation); must be cheap.
    public let onDenial: @Sendable (AccessRequest, RulesExplanation) -> Void
    /// Receives every decision in batch order up to the first denial; must be cheap.
    public let onDecision: (@Sendable (AccessRequest, RulesDecision) -> Void)?

    /// Creates the policy.
    public init(
        ruleset: Ruleset, onDenial: @escaping @Sendable (AccessRequest, RulesExplanation) -> Void,
        onDecision: (@Sendable (AccessRequest, RulesDecision) -> Void)? = nil
    ) {
        self.ruleset = ruleset
        self.onDenial = onDenial
        self.onDecision = onDecision
    }

    public func check(_ requests: [AccessRequest], lookup: any AccessLookup) -> FirestoreError? {
        let decisions = ruleset.decide(batch: requests, access: LookupAccess(lookup: lookup))
        for (request, decision) in zip(requests, decisions) {
            onDecision?(request, decision)
            guard !decision.allowed else { continue }
            onDenial(request, decision.explanation)
            return .permissionDenied(decision.explanation.emulatorMessage)
        }
        return nil
    }
}

/// `get()`/`getAfter()` through the request's own snapshot.
struct LookupAccess: RulesDocumentAccess {
    let lookup: any AccessLookup
    func get(_ path: ResourcePath) throws -> Document? { try lookup.before(path) }
    func getAfter(_ path: ResourcePath) throws -> Document? { try lookup.after(path) }
}
