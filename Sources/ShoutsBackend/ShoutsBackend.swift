import FirestoreModel
import Functions

/// Shouts & Whispers' Cloud Functions, ported from the TypeScript original (docs/app/shouts-and-whispers.md §2):
/// the `sendMessage` callable (docs/app/shouts-and-whispers.md §4) and the daily `cleanupPresence` job.
///
/// Uses only the Functions API — Admin client, Messaging, the host's clock — so it plugs into
/// any `FunctionsHost` (docs/ARCHITECTURE.md rule 7).
public enum ShoutsBackend {
    /// Name of the callable: `sendMessage`.
    public static let sendMessageName = "sendMessage"
    /// Name of the scheduled function: `cleanupPresence`.
    public static let cleanupPresenceName = "cleanupPresence"
    /// `cleanupPresence` runs every 24 hours (docs/app/shouts-and-whispers.md §4 "scheduled, daily").
    public static let cleanupSchedule = Schedule(every: .seconds(24 * 60 * 60))

    /// Registers `sendMessage` (region `us-central1`) and `cleanupPresence` on `host`.
    /// - Precondition: neither is registered on `host` yet.
    public static func register(into host: FunctionsHost) {
        let services = ShoutsServices(host: host)
        let sendMessage = SendMessage(services: services)
        host.onCall(sendMessageName) { request async throws(CallableError) -> CallableValue in
            try sendMessage.handle(request)
        }
        let cleanup = CleanupPresence(services: services)
        host.onSchedule(cleanupPresenceName, schedule: cleanupSchedule) { event in
            let deleted = try cleanup.run(now: event.scheduleTime)
            FunctionsLogger.info("deleted \(deleted) stale presence document(s)")
            return ["deleted": .int(Int64(deleted))]
        }
    }
}

/// What the app's functions use from the host, captured without the host itself (so the
/// host's registry does not hold the host alive through its own handlers).
struct ShoutsServices: Sendable {
    /// The host's Admin client.
    let admin: AdminClient
    /// The host's Messaging.
    let messaging: Messaging
    /// The host's clock.
    let clock: @Sendable () -> Timestamp
    /// The host's error sink.
    let report: @Sendable (_ function: String, _ error: any Error) -> Void

    /// Captures the services of `host`.
    init(host: FunctionsHost) {
        admin = host.admin
        messaging = host.messaging
        clock = host.clock
        report = host.errorSink
    }
}
