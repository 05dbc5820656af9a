import FoundationEssentials
import Glibc

/// One user of `hearth demo`: a Google account (name, photo) whose phone stands at a fixed
/// place and may have saved a push token.
///
/// Positions are placed with the spherical destination formula on the 6,371 km sphere that
/// geofire-common's haversine uses, so the distances `sendMessage` measures come out as the
/// metres given here (to well under a millimetre). Source: docs/app/shouts-and-whispers.md §1, §3, §6.
public struct DemoPerson: Sendable, Hashable {
    /// Short lower-case key, used in the Google subject id (`google-ada`) and tokens.
    public var key: String
    /// Display name in the Google credential (becomes the ID token's `name` claim).
    public var name: String
    /// Photo URL in the Google credential (becomes the ID token's `picture` claim).
    public var photoURL: String
    /// Where the phone is, in words (`30 m north of the World Clock`).
    public var place: String
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// The push token the phone saves; nil when notifications are off.
    public var fcmToken: String?
    /// One remark shown in the cast list, if any.
    public var note: String?

    /// Creates a person standing `distanceMeters` from `origin` towards `bearingDegrees`
    /// (0 = north, 90 = east), described as `place`.
    public init(
        key: String, name: String, place: String, origin: (latitude: Double, longitude: Double),
        bearingDegrees: Double, distanceMeters: Double, fcmToken: String?, note: String? = nil
    ) {
        self.key = key
        self.name = name
        self.photoURL = "https://photos.example/\(key).jpg"
        self.place = place
        let p = Self.destination(from: origin, bearingDegrees: bearingDegrees, distanceMeters: distanceMeters)
        self.latitude = p.latitude
        self.longitude = p.longitude
        self.fcmToken = fcmToken
        self.note = note
    }

    /// Mean Earth radius of geofire-common's haversine, in metres.
    static let earthRadiusMeters = 6_371_000.0

    /// The point `distanceMeters` from `origin` along the great circle leaving it at
    /// `bearingDegrees`: `φ₂ = asin(sin φ₁ cos δ + cos φ₁ sin δ cos θ)`,
    /// `λ₂ = λ₁ + atan2(sin θ sin δ cos φ₁, cos δ − sin φ₁ sin φ₂)`, longitude wrapped into
    /// −180…180.
    static func destination(
        from origin: (latitude: Double, longitude: Double), bearingDegrees: Double, distanceMeters: Double
    ) -> (latitude: Double, longitude: Double) {
        let lat1 = origin.latitude * .pi / 180
        let lng1 = origin.longitude * .pi / 180
        let bearing = bearingDegrees * .pi / 180
        let angle = distanceMeters / earthRadiusMeters
        let lat2 = asin(sin(lat1) * cos(angle) + cos(lat1) * sin(angle) * cos(bearing))
        let lng2 = lng1 + atan2(sin(bearing) * sin(angle) * cos(lat1), cos(angle) - sin(lat1) * sin(lat2))
        var longitude = lng2 * 180 / .pi
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return (lat2 * 180 / .pi, longitude)
    }
}
