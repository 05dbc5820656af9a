import Testing

@testable import ShoutsBackend

@Suite("GeoDistance.between (geofire-common distanceBetween, docs/reference/firestore-wire.md §5.3)")
struct GeoDistanceTests {
    @Test("docs/reference/firestore-wire.md §5.3 and geofire-common test suite distances, in kilometres", arguments: [
        (90.0, 180.0, 90.0, 180.0, 0.0, 0.0),
        (-90.0, -180.0, 90.0, 180.0, 20015.0, 1.0),
        (-90.0, -180.0, -90.0, 180.0, 0.0, 1.0),
        (-90.0, -180.0, 90.0, -180.0, 20015.0, 1.0),
        (37.7853074, -122.4054274, 78.216667, 15.55, 6818.0, 1.0),
        (38.98719, -77.250783, 29.3760648, 47.9818853, 10531.0, 1.0),
        (38.98719, -77.250783, -54.933333, -67.616667, 10484.0, 1.0),
        (29.3760648, 47.9818853, -54.933333, -67.616667, 14250.0, 1.0),
        (-54.933333, -67.616667, -54.0, -67.0, 111.0, 1.0),
        (51.5074, -0.1278, 48.8566, 2.3522, 343.556, 0.001),
        (37.7749, -122.4194, 37.7849, -122.4194, 1.11195, 0.00001),
    ])
    func vectors(lat1: Double, lng1: Double, lat2: Double, lng2: Double, kilometres: Double, tolerance: Double) throws {
        let a = try point(lat1, lng1)
        let b = try point(lat2, lng2)
        #expect(abs(GeoDistance.between(a, b) - kilometres) <= tolerance)
        #expect(GeoDistance.between(a, b) == GeoDistance.between(b, a))
    }

    @Test("a degree of latitude is 6371 km · π / 180 (the sphere, not the ellipsoid)")
    func oneDegreeOfLatitude() throws {
        let d = GeoDistance.between(try point(10, 20), try point(11, 20))
        #expect(abs(d - 6371 * Double.pi / 180) < 1e-9)
    }
}
