import FirestoreModel

/// A validated `[latitude, longitude]` pair in degrees (WGS 84, as phones report it).
///
/// Latitude is in −90…90 and longitude in −180…180, both inclusive and never NaN: the
/// checks of geofire-common's `validateLocation`. Every geo function here takes a `GeoLocation`,
/// so none of them has to re-validate. Unlike `FirestoreModel.GeoPoint` (a stored value that
/// the model checks only on write), a `GeoLocation` cannot hold an invalid pair.
/// Source: geofire-common `validateLocation`; docs/reference/firestore-wire.md §5.
public struct GeoLocation: Sendable, Hashable {
    /// Degrees north of the equator, −90…90.
    public let latitude: Double
    /// Degrees east of Greenwich, −180…180.
    public let longitude: Double

    /// Creates a point after checking both coordinates.
    /// - Throws: `.invalidArgument` when latitude is NaN or outside −90…90, or longitude is NaN
    ///   or outside −180…180 (infinities are outside).
    public init(latitude: Double, longitude: Double) throws(FirestoreError) {
        guard (-90.0...90.0).contains(latitude) else {
            throw .invalidArgument("Invalid location: latitude must be a number within [-90, 90], got \(latitude).")
        }
        guard (-180.0...180.0).contains(longitude) else {
            throw .invalidArgument(
                "Invalid location: longitude must be a number within [-180, 180], got \(longitude).")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a point whose coordinates the caller has already brought into range
    /// (clamped latitudes, wrapped longitudes inside the bounds computation).
    init(uncheckedLatitude latitude: Double, longitude: Double) {
        assert((-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude))
        self.latitude = latitude
        self.longitude = longitude
    }
}
