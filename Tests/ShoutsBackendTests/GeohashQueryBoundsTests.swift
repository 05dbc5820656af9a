import DeterministicRandom
import Foundation
import Testing

@testable import ShoutsBackend

@Suite("Geohash.queryBounds (geofire-common geohashQueryBounds, docs/reference/firestore-wire.md §5.2)")
struct GeohashQueryBoundsTests {
    @Test("boundingBoxBits: docs/reference/firestore-wire.md §5.2 and geofire-common test suite vectors", arguments: [
        (35.0, 0.0, 1000.0, 28), (35.645, 0.0, 1000.0, 27), (36.0, 0.0, 1000.0, 27), (0.0, 0.0, 1000.0, 28),
        (0.0, -180.0, 1000.0, 28), (0.0, 180.0, 1000.0, 28), (0.0, 0.0, 8000.0, 22), (45.0, 0.0, 1000.0, 27),
        (75.0, 0.0, 1000.0, 25), (75.0, 0.0, 2000.0, 23), (90.0, 0.0, 1000.0, 1), (90.0, 0.0, 2000.0, 1),
    ])
    func boundingBoxBits(latitude: Double, longitude: Double, sizeMeters: Double, expected: Int) throws {
        #expect(Geohash.boundingBoxBits(try point(latitude, longitude), sizeMeters: sizeMeters) == expected)
    }

    @Test("geohashQuery: docs/reference/firestore-wire.md §5.2 and geofire-common test suite vectors", arguments: [
        ("64m9yn96mx", 6, "[60,6h]"), ("64m9yn96mx", 1, "[0,h]"), ("64m9yn96mx", 10, "[64,65]"),
        ("6409yn96mx", 11, "[640,64h]"), ("64m9yn96mx", 11, "[64h,64~]"), ("6", 10, "[6,6~]"),
        ("64z178", 12, "[64s,64~]"), ("64z178", 15, "[64z,64~]"),
    ])
    func geohashQuery(geohash: String, bits: Int, expected: String) {
        #expect(Geohash.range(forGeohash: geohash, bits: bits).description == expected)
    }

    @Test("worked example: San Francisco, 1000 m — bits, nine points, raw ranges, result")
    func sanFranciscoWorkedExample() throws {
        let center = try point(37.7749, -122.4194)
        #expect(abs(Geohash.latitudeBitsForResolution(1000) - 14.288) < 0.0005)
        let north = 37.7749 + 1000 / Geohash.metersPerDegreeLatitude
        #expect(abs(Geohash.longitudeBitsForResolution(1000, latitude: north) - 14.953) < 0.0005)
        #expect(Geohash.boundingBoxBits(center, sizeMeters: 1000) == 27)

        let points = Geohash.boundingBoxCoordinates(center, radiusMeters: 1000)
        // longDegs = max(m2lon(north), m2lon(south)) = m2lon(north) ≈ 0.0113521; docs/reference/firestore-wire.md §5.2
        // prints ≈ 0.011351, which is m2lon at the centre's latitude (0.0113507).
        #expect(abs((points[2].longitude - points[0].longitude) - 0.0113521) < 0.0000001)
        #expect(abs(Geohash.metersToLongitudeDegrees(1000, latitude: 37.7749) - 0.011351) < 0.0000005)
        let hashes = points.map { Geohash.forLocation($0, precision: 6) }
        #expect(hashes == ["9q8yyk", "9q8yyh", "9q8yys", "9q8yyq", "9q8yyn", "9q8yyw", "9q8yy7", "9q8yy5", "9q8yye"])
        let raw = hashes.map { Geohash.range(forGeohash: $0, bits: 27).description }
        #expect(raw == [
            "[9q8yyh,9q8yys]", "[9q8yyh,9q8yys]", "[9q8yys,9q8yy~]",
            "[9q8yyh,9q8yys]", "[9q8yyh,9q8yys]", "[9q8yys,9q8yy~]",
            "[9q8yy0,9q8yy8]", "[9q8yy0,9q8yy8]", "[9q8yy8,9q8yyh]",
        ])
        #expect(rendered(Geohash.queryBounds(center: center, radiusMeters: 1000)) == [
            "[9q8yyh,9q8yys]", "[9q8yys,9q8yy~]", "[9q8yy0,9q8yy8]", "[9q8yy8,9q8yyh]",
        ])
    }

    @Test("docs/reference/firestore-wire.md §5.2 result table: bits and bounds, in order", arguments: [
        (51.5074, -0.1278, 5000.0, 22, ["[gcpvh,gcpvs]", "[gcpv0,gcpv8]", "[gcpus,gcpu~]", "[gcpu8,gcpuh]"]),
        (40.7128, -74.0060, 500.0, 29, ["[dr5ref,dr5reh]", "[dr5rs4,dr5rs6]", "[dr5reu,dr5rew]", "[dr5rsh,dr5rsk]"]),
        (0.0, 179.999, 10000.0, 20, ["[rzzz,rzz~]", "[2pbp,2pbq]", "[xbpb,xbpc]", "[8000,8001]"]),
        (35.6762, 139.6503, 50000.0, 16, ["[xn70,xn7h]", "[xn60,xn6h]", "[xn7h,xn7~]", "[xn6h,xn6~]"]),
    ])
    func referenceTable(latitude: Double, longitude: Double, radius: Double, bits: Int, expected: [String]) throws {
        let center = try point(latitude, longitude)
        #expect(Geohash.boundingBoxBits(center, sizeMeters: radius) == bits)
        let bounds = Geohash.queryBounds(center: center, radiusMeters: radius)
        #expect(rendered(bounds) == expected)
        #expect(bounds.allSatisfy { $0.start.count == (bits + 4) / 5 })
    }

    @Test("metersToLongitudeDegrees: geofire-common test suite values", arguments: [
        (1000.0, 0.0, 0.008983), (111320.0, 0.0, 1.0), (107550.0, 15.0, 1.0), (96486.0, 30.0, 1.0),
        (78847.0, 45.0, 1.0), (55800.0, 60.0, 1.0), (28902.0, 75.0, 1.0), (0.0, 90.0, 0.0),
        (1000.0, 90.0, 360.0), (1000.0, 89.9999, 360.0), (1000.0, 89.995, 102.594208),
    ])
    func metersToLongitudeDegrees(meters: Double, latitude: Double, expected: Double) {
        #expect(abs(Geohash.metersToLongitudeDegrees(meters, latitude: latitude) - expected) < 0.00001)
    }

    @Test("log2 is ln(x) / ln(2) as in geofire-common, not the correctly rounded log2")
    func log2AsJavaScript() {
        // Node's Math.log(2 ** -29) / Math.log(2) is also below -29 (checked with node).
        #expect(Geohash.log2JS(0x1p-29) < -29)
        #expect(Geohash.log2JS(0x1p29) > 29)
        #expect(Geohash.log2JS(8) == 3)
    }

    @Test("wrapLongitude: geofire-common test suite values", arguments: [
        (0.0, 0.0), (180.0, 180.0), (-180.0, -180.0), (182.0, -178.0), (270.0, -90.0), (360.0, 0.0),
        (540.0, -180.0), (630.0, -90.0), (720.0, 0.0), (810.0, 90.0), (-360.0, 0.0), (-182.0, 178.0),
        (-270.0, 90.0), (-450.0, -90.0), (-540.0, 180.0), (-630.0, 90.0), (1080.0, 0.0), (-1080.0, 0.0),
    ])
    func wrapLongitude(longitude: Double, expected: Double) {
        #expect(abs(Geohash.wrapLongitude(longitude) - expected) < 0.000001)
    }

    @Test("antimeridian: 179.9995 and −179.9995 are ~111 m apart and each falls in the other's whisper bounds")
    func antimeridianNeighbours() throws {
        let east = try point(0, 179.9995)
        let west = try point(0, -179.9995)
        let eastBounds = Geohash.queryBounds(center: east, radiusMeters: ShoutsConstants.whisperRadiusMeters)
        let westBounds = Geohash.queryBounds(center: west, radiusMeters: ShoutsConstants.whisperRadiusMeters)
        let precision = ShoutsConstants.presenceGeohashPrecision
        #expect(eastBounds.contains { $0.contains(Geohash.forLocation(west, precision: precision)) })
        #expect(westBounds.contains { $0.contains(Geohash.forLocation(east, precision: precision)) })
        // The wrapped ranges sit on both sides of the hash space.
        #expect(eastBounds.contains { $0.start.hasPrefix("r") } && eastBounds.contains { $0.start.hasPrefix("2") })
        #expect(abs(GeoDistance.between(east, west) * 1000 - 111.19) < 0.01)
    }

    @Test("poles: bits collapse to 1 and, as in geofire-common, only one longitude half is covered")
    func poles() throws {
        // Within radius of a pole, metersToLongitudeDegrees is 360, so wrapLongitude(lng ± 360)
        // puts all nine points on the centre's meridian and the first (longitude) bit is the
        // centre's: the eastern half of the polar cap is missed. geofire-common does the same.
        let north = try point(90, 0)
        #expect(Geohash.boundingBoxBits(north, sizeMeters: 1000) == 1)
        let bounds = Geohash.queryBounds(center: north, radiusMeters: 1000)
        #expect(rendered(bounds) == ["[0,h]"])
        let west = try point(89.995, -123.4)
        let east = try point(89.995, 123.4)
        #expect(GeoDistance.between(north, west) * 1000 < 1000)
        #expect(GeoDistance.between(north, east) * 1000 < 1000)
        #expect(bounds.contains { $0.contains(Geohash.forLocation(west)) })
        #expect(!bounds.contains { $0.contains(Geohash.forLocation(east)) })

        let nearSouthPole = try point(-89.9999, 10)
        let south = Geohash.queryBounds(center: nearSouthPole, radiusMeters: 1500)
        #expect(rendered(south) == ["[h,~]"])
        let southHash = Geohash.forLocation(try point(-89.995, 77))
        #expect(south.contains { $0.contains(southHash) })
    }

    @Test("a centre on a cell edge is covered on both sides")
    func cellEdgeCenter() throws {
        // 0,0 is the corner of four top-level cells; 100 m around it spans all four.
        let center = try point(0, 0)
        let bounds = Geohash.queryBounds(center: center, radiusMeters: 100)
        for (latitude, longitude) in [(0.0005, 0.0005), (0.0005, -0.0005), (-0.0005, 0.0005), (-0.0005, -0.0005)] {
            let p = try point(latitude, longitude)
            #expect(GeoDistance.between(center, p) * 1000 < 100)
            #expect(bounds.contains { $0.contains(Geohash.forLocation(p, precision: 9)) }, "\(latitude),\(longitude)")
        }
    }

    @Test("bounds are de-duplicated keeping the first, and never more than nine")
    func deduplication() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let center = try point(Double.random(in: -89...89, using: &rng), Double.random(in: -180...180, using: &rng))
            let bounds = Geohash.queryBounds(center: center, radiusMeters: Double.random(in: 1...200_000, using: &rng))
            #expect((1...9).contains(bounds.count))
            #expect(Set(bounds).count == bounds.count)
        }
    }

    @Test("presence hashes (9 characters) are long enough for whisper and shout bounds at any latitude")
    func presencePrecisionSuffices() throws {
        for latitude in stride(from: -89.0, through: 89.0, by: 1.0) {
            for radius in [ShoutsConstants.whisperRadiusMeters, ShoutsConstants.shoutRadiusMeters] {
                let bounds = Geohash.queryBounds(center: try point(latitude, 0), radiusMeters: radius)
                #expect(bounds.allSatisfy { $0.start.count <= ShoutsConstants.presenceGeohashPrecision })
            }
        }
    }

    @Test("every point inside the circle has its geohash inside some bound (seeded, 200 circles)")
    func boundsCoverTheCircle() throws {
        // The property geofire-common's own suite checks with Math.random; seeded here.
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<200 {
            let centerLatitude = pow(Double.random(in: 0..<1, using: &rng), 5) * 160 - 80
            let centerLongitude = pow(Double.random(in: 0..<1, using: &rng), 5) * 360 - 180
            let radius = Double.random(in: 0..<1, using: &rng) * Double.random(in: 0..<1, using: &rng) * 100_000
            let center = try point(centerLatitude, centerLongitude)
            let degrees = Geohash.metersToLongitudeDegrees(radius, latitude: centerLatitude)
            let bounds = Geohash.queryBounds(center: center, radiusMeters: radius)
            for _ in 0..<200 {
                let latitude = max(-89.9, min(89.9, centerLatitude + Double.random(in: -1...1, using: &rng) * degrees))
                let longitude = Geohash.wrapLongitude(
                    centerLongitude + Double.random(in: -1...1, using: &rng) * degrees)
                let p = try point(latitude, longitude)
                guard GeoDistance.between(center, p) * 1000 <= radius else { continue }
                let hash = Geohash.forLocation(p)
                #expect(bounds.contains { $0.contains(hash) }, "center \(center) radius \(radius) point \(p)")
            }
        }
    }
}

@Suite("GeohashRange")
struct GeohashRangeTests {
    @Test("contains is inclusive at both ends, like startAt/endAt, and byte-ordered")
    func containsInclusive() {
        let range = GeohashRange(start: "9q8yyh", end: "9q8yys")
        #expect(range.contains("9q8yyh"))
        #expect(range.contains("9q8yyh000"))
        #expect(range.contains("9q8yyr"))
        #expect(range.contains("9q8yys"))
        #expect(!range.contains("9q8yys000"))
        #expect(!range.contains("9q8yy8zzz"))
        let open = GeohashRange(start: "9q8yys", end: "9q8yy~")
        #expect(open.contains("9q8yyzzzzz"))
        #expect(!open.contains("9q8yz"))
    }
}
