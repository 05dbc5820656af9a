import FoundationEssentials
import Glibc

/// Great-circle distance on a sphere, as geofire-common computes it.
///
/// Source: geofire-common `distanceBetween`, `degreesToRadians`; docs/reference/firestore-wire.md §5.3.
public enum GeoDistance {
    /// Mean Earth radius used by geofire-common's haversine: 6,371 kilometres.
    public static let earthRadiusKilometers = 6371.0

    /// Haversine distance between `a` and `b`, in **kilometres** (geofire-common's unit; query
    /// bounds take metres). Symmetric; 0 for equal points; ≈ 20,015 km pole to pole.
    ///
    /// `h = sin²(Δφ/2) + cos φ₁ · cos φ₂ · sin²(Δλ/2)`, `d = 6371 · 2 · atan2(√h, √(1−h))`, with
    /// `Δλ` taken straight from the longitudes, so points either side of the antimeridian
    /// (179.9995 and −179.9995) come out close, as they are.
    /// Source: geofire-common `distanceBetween(location1, location2)`; docs/reference/firestore-wire.md §5.3.
    public static func between(_ a: GeoLocation, _ b: GeoLocation) -> Double {
        let latitudeDelta = radians(fromDegrees: b.latitude - a.latitude)
        let longitudeDelta = radians(fromDegrees: b.longitude - a.longitude)
        let h =
            (sin(latitudeDelta / 2) * sin(latitudeDelta / 2))
            + (cos(radians(fromDegrees: a.latitude)) * cos(radians(fromDegrees: b.latitude))
                * sin(longitudeDelta / 2) * sin(longitudeDelta / 2))
        let c = 2 * atan2(sqrt(h), sqrt(1 - h))
        return earthRadiusKilometers * c
    }

    /// `degreesToRadians`: `degrees * π / 180`, in geofire-common's operation order.
    static func radians(fromDegrees degrees: Double) -> Double { degrees * Double.pi / 180 }
}
