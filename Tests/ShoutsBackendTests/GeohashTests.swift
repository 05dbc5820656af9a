import FirestoreModel
import Testing

@testable import ShoutsBackend

@Suite("Geohash.forLocation (geofire-common geohashForLocation, docs/reference/firestore-wire.md §5.1)")
struct GeohashTests {
    @Test("docs/reference/firestore-wire.md §5.1 vectors", arguments: [
        (37.7853074, -122.4054274, 10, "9q8yywe56g"),
        (-90.0, -180.0, 10, "0000000000"),
        (90.0, 180.0, 10, "zzzzzzzzzz"),
        (-90.0, 180.0, 10, "pbpbpbpbpb"),
        (38.98719, -77.250783, 18, "dqcjf17sy6cppp8vfn"),
        (51.5074, -0.1278, 10, "gcpvj0duq5"),
        (48.8566, 2.3522, 10, "u09tvw0f64"),
        (0.0, 0.0, 10, "7zzzzzzzzz"),
    ])
    func referenceVectors(latitude: Double, longitude: Double, precision: Int, expected: String) throws {
        #expect(Geohash.forLocation(try point(latitude, longitude), precision: precision) == expected)
    }

    @Test("geofire-common test suite vectors at the default precision 10", arguments: [
        (-90.0, -180.0, "0000000000"), (90.0, 180.0, "zzzzzzzzzz"), (-90.0, 180.0, "pbpbpbpbpb"),
        (90.0, -180.0, "bpbpbpbpbp"), (37.7853074, -122.4054274, "9q8yywe56g"),
        (38.98719, -77.250783, "dqcjf17sy6"), (29.3760648, 47.9818853, "tj4p5gerfz"),
        (78.216667, 15.55, "umghcygjj7"), (-54.933333, -67.616667, "4qpzmren1k"), (-54.0, -67.0, "4w2kg3s54y"),
    ])
    func defaultPrecision(latitude: Double, longitude: Double, expected: String) throws {
        #expect(Geohash.forLocation(try point(latitude, longitude)) == expected)
    }

    @Test("geofire-common test suite vectors at custom precisions", arguments: [
        (-90.0, -180.0, 6, "000000"), (90.0, 180.0, 20, "zzzzzzzzzzzzzzzzzzzz"), (-90.0, 180.0, 1, "p"),
        (90.0, -180.0, 5, "bpbpb"), (37.7853074, -122.4054274, 8, "9q8yywe5"),
        (38.98719, -77.250783, 18, "dqcjf17sy6cppp8vfn"), (29.3760648, 47.9818853, 12, "tj4p5gerfzqu"),
        (78.216667, 15.55, 1, "u"), (-54.933333, -67.616667, 7, "4qpzmre"), (-54.0, -67.0, 9, "4w2kg3s54"),
    ])
    func customPrecision(latitude: Double, longitude: Double, precision: Int, expected: String) throws {
        #expect(Geohash.forLocation(try point(latitude, longitude), precision: precision) == expected)
    }

    @Test("every precision 1…22 yields that many base32 characters, each a prefix of the next")
    func precisionRange() throws {
        let location = try point(37.7853074, -122.4054274)
        let longest = Geohash.forLocation(location, precision: Geohash.maximumPrecision)
        #expect(longest.count == 22)
        for precision in 1...Geohash.maximumPrecision {
            let hash = Geohash.forLocation(location, precision: precision)
            #expect(hash.count == precision)
            #expect(longest.hasPrefix(hash))
            #expect(hash.utf8.allSatisfy { Geohash.base32.contains($0) })
        }
    }

    @Test("a point exactly on a cell edge goes to the lower (south / west) cell")
    func cellEdgesGoLow() throws {
        // Longitude 0 and latitude 0 are the first midpoints.
        #expect(Geohash.forLocation(try point(0, 0), precision: 1) == "7")
        #expect(Geohash.forLocation(try point(0, 0.000001), precision: 1) == "k")
        #expect(Geohash.forLocation(try point(0.000001, 0), precision: 1) == "e")
        #expect(Geohash.forLocation(try point(0.000001, 0.000001), precision: 1) == "s")
        // 45° N is the edge between the 2nd-level latitude halves; 22.5° E a longitude edge.
        let edge = Geohash.forLocation(try point(45, 22.5), precision: 2)
        #expect(edge == Geohash.forLocation(try point(44.999, 22.499), precision: 2))
        #expect(edge != Geohash.forLocation(try point(45.001, 22.501), precision: 2))
        // A cell's south-west corner belongs to its south-western neighbour, not to itself.
        #expect(Geohash.forLocation(try point(-45, -90), precision: 2) == "1z")
        #expect(Geohash.forLocation(try point(-45, -90).nudged(), precision: 2) == "60")
    }

    @Test("poles and the antimeridian encode to the expected corner cells")
    func polesAndAntimeridian() throws {
        #expect(Geohash.forLocation(try point(90, 0), precision: 3) == "gzz")
        #expect(Geohash.forLocation(try point(-90, 0), precision: 3) == "5bp")
        #expect(Geohash.forLocation(try point(0, 180), precision: 3) == "rzz")
        #expect(Geohash.forLocation(try point(0, -180), precision: 3) == "2pb")
        // Neighbours across the antimeridian share no prefix at all.
        #expect(Geohash.forLocation(try point(0, 179.9995), precision: 9).first == "r")
        #expect(Geohash.forLocation(try point(0, -179.9995), precision: 9).first == "2")
    }

    @Test("presence hashes are 9 characters (docs/app/shouts-and-whispers.md §3)")
    func presencePrecision() throws {
        let hash = Geohash.forLocation(try point(51.5074, -0.1278), precision: ShoutsConstants.presenceGeohashPrecision)
        #expect(hash == "gcpvj0duq")
    }

    @Test("agrees with pygeohash (independent implementation) on 135 points at 12 characters")
    func crossCheckWithPygeohash() throws {
        for (latitude, longitude, expected) in pygeohashCorpus {
            let hash = Geohash.forLocation(try point(latitude, longitude), precision: 12)
            #expect(hash == expected, "\(latitude),\(longitude)")
        }
    }
}

@Suite("GeoLocation validation (geofire-common validateLocation)")
struct GeoLocationTests {
    @Test("accepts the closed ranges including their ends")
    func acceptsRangeEnds() throws {
        for (latitude, longitude) in [(-90.0, -180.0), (90.0, 180.0), (0.0, -0.0)] {
            let p = try point(latitude, longitude)
            #expect(p.latitude == latitude && p.longitude == longitude)
        }
    }

    @Test("rejects out-of-range, infinite and NaN coordinates with INVALID_ARGUMENT", arguments: [
        (90.000001, 0.0), (-90.000001, 0.0), (0.0, 180.000001), (0.0, -180.000001),
        (Double.nan, 0.0), (0.0, Double.nan), (Double.infinity, 0.0), (0.0, -Double.infinity),
    ])
    func rejects(latitude: Double, longitude: Double) {
        let error = #expect(throws: FirestoreError.self) { try GeoLocation(latitude: latitude, longitude: longitude) }
        #expect(error?.code == .invalidArgument)
    }
}

extension GeoLocation {
    /// The same point moved one ulp north-east (test helper for cell-edge cases).
    func nudged() throws -> GeoLocation { try GeoLocation(latitude: latitude.nextUp, longitude: longitude.nextUp) }
}
