import DeterministicRandom
import FirestoreEngine
import Foundation
import FirestoreModel
import Functions
import ShoutsBackend

/// Workloads for the benchmark executable (`Benchmarks/HearthBench`).
public enum ShoutsBenchmarks {
    /// The project the workloads write into.
    public static let project = "demo-shouts-bench"

    /// Seeds `presence` documents around one point and times one `sendMessage` shout, called
    /// in-process through the host (no HTTP).
    ///
    /// Of the `presence` users, `recipients` are fresh and within the shout radius (uniform over
    /// the disc, each with a push token); of the rest, half are fresh but 1.6–2.5 km away (many
    /// inside the geohash bounds: false positives the post-filter drops) and half are within
    /// the radius but stale (10 minutes old). Seeding is not timed.
    /// - Parameters:
    ///   - recipients: users who must receive the message (≥ 0).
    ///   - presence: total presence documents (raised to `recipients` if smaller).
    ///   - engine: a fresh engine using the system clock (freshness is judged on it); the
    ///     workload writes into project `demo-shouts-bench`.
    /// - Returns: the wall time of the call: transaction, queries, fan-out, pushes.
    /// - Throws: storage errors while seeding; the call's `CallableError`; a `CallableError`
    ///   `INTERNAL` when the recipient count differs from `recipients`.
    public static func sendMessage(recipients: Int, presence: Int, engine: FirestoreEngine) async throws -> Duration {
        let host = FunctionsHost(project: project, engine: engine)
        ShoutsBackend.register(into: host)
        let center = try GeoLocation(latitude: 37.7749, longitude: -122.4194)
        try seedPresence(recipients: max(0, recipients), total: max(presence, recipients), center: center, host: host)
        let token: FieldMap = ["sub": .string("bench-sender"), "name": .string("Bench")]
        let request = CallableRequest(
            data: [
                "text": "benchmark shout", "kind": "shout", "lat": .double(center.latitude),
                "lng": .double(center.longitude),
            ],
            context: CallableContext(
                auth: CallableAuth(uid: "bench-sender", token: token), project: project,
                region: FunctionsHost.defaultRegion, functionName: ShoutsBackend.sendMessageName))
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await host.call(ShoutsBackend.sendMessageName, request: request)
        let elapsed = start.duration(to: clock.now)
        guard case .int(let count)? = result["recipientCount"], count == Int64(max(0, recipients)) else {
            throw CallableError(
                .internalError, "benchmark delivered to \(result["recipientCount"] ?? .null), not \(recipients)")
        }
        return elapsed
    }

    /// Writes the presence documents described by `sendMessage(recipients:presence:engine:)`.
    static func seedPresence(recipients: Int, total: Int, center: GeoLocation, host: FunctionsHost)
        throws(FirestoreError)
    {
        var rng = SplitMix64(seed: 0x5EED)
        let now = host.clock()
        let stale = RecipientSelection.subtracting(.seconds(600), from: now)
        let presence = host.admin.collection(ShoutsCollections.presence)
        var batch = host.admin.batch()
        for i in 0..<total {
            let inside = i < recipients || (i - recipients) % 2 == 1
            let distance = inside
                ? ShoutsConstants.shoutRadiusMeters * 0.95 * (Double(rng.next() % 10_000) / 10_000).squareRoot()
                : 1600 + Double(rng.next() % 900)
            let bearing = Double(rng.next() % 36_000) / 100 * Double.pi / 180
            let point = try offset(center, meters: distance, bearing: bearing)
            batch.set(
                presence.document("bench-user-\(i)"),
                [
                    "lat": .double(point.latitude), "lng": .double(point.longitude),
                    "geohash": .string(Geohash.forLocation(point, precision: ShoutsConstants.presenceGeohashPrecision)),
                    "updatedAt": .timestamp(i < recipients || !inside ? now : stale),
                    "fcmToken": .string("bench-token-\(i)"),
                ])
            if batch.count == ShoutsConstants.feedBatchMaxWrites {
                try batch.commit()
                batch = host.admin.batch()
            }
        }
        if batch.count > 0 { try batch.commit() }
    }

    /// The point `meters` from `center` towards `bearing` (radians from north), on
    /// geofire-common's sphere (small-distance approximation, error ≪ 1 m at these ranges).
    static func offset(_ center: GeoLocation, meters: Double, bearing: Double) throws(FirestoreError) -> GeoLocation {
        let degreesPerMeter = 180 / (Double.pi * GeoDistance.earthRadiusKilometers * 1000)
        let dLat = meters * cos(bearing) * degreesPerMeter
        let dLng = meters * sin(bearing) * degreesPerMeter / cos(center.latitude * Double.pi / 180)
        return try GeoLocation(latitude: center.latitude + dLat, longitude: center.longitude + dLng)
    }
}

