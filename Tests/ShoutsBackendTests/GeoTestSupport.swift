import FirestoreModel
@testable import ShoutsBackend

/// A checked `GeoLocation` for tests: throws (failing the test) on out-of-range input.
func point(_ latitude: Double, _ longitude: Double) throws -> GeoLocation {
    try GeoLocation(latitude: latitude, longitude: longitude)
}

/// Bounds as `[start,end]` strings, the notation of docs/reference/firestore-wire.md §5.2.
func rendered(_ bounds: [GeohashRange]) -> [String] { bounds.map(\.description) }

