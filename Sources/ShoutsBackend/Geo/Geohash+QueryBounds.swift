import FoundationEssentials
import Glibc

/// Geohash query bounds for a circle, computed exactly as geofire-common does: same bit count,
/// same nine sample points, same ranges, same order, same de-duplication.
///
/// Floating-point expressions keep geofire-common's operation order (`deg * π / 180`,
/// `log(x) / log(2)`, `num * (1 / sqrt(…))`) so that results at `floor` boundaries agree.
/// Source: geofire-common `geohashQueryBounds`, `boundingBoxBits`, `boundingBoxCoordinates`,
/// `geohashQuery`, `metersToLongitudeDegrees`, `wrapLongitude`; docs/reference/firestore-wire.md §5.2.
extension Geohash {
    /// `EARTH_MERI_CIRCUMFERENCE`: the meridional circumference of the Earth, metres.
    static let earthMeridionalCircumferenceMeters = 40_007_860.0
    /// `METERS_PER_DEGREE_LATITUDE`: length of one degree of latitude at the equator, metres.
    static let metersPerDegreeLatitude = 110_574.0
    /// `EARTH_EQ_RADIUS`: equatorial radius of the Earth, metres.
    static let earthEquatorialRadiusMeters = 6_378_137.0
    /// `E2`: square of the Earth's eccentricity (WGS 84 flattening), dimensionless.
    static let eccentricitySquared = 0.00669447819799
    /// `EPSILON`: cut-off for rounding errors, degrees.
    static let epsilon = 1e-12

    /// The ranges of geohashes that together cover every point within `radiusMeters` of
    /// `center`.
    ///
    /// Steps (docs/reference/firestore-wire.md §5.2): `queryBits = max(1, boundingBoxBits)`; hash the nine points of
    /// `boundingBoxCoordinates` at `ceil(queryBits / 5)` characters; turn each hash into the
    /// range of its `queryBits`-bit prefix; drop exact duplicates keeping the first. Ranges
    /// may overlap or touch; they are not merged. Between 1 and 9 ranges, typically 4.
    /// The ranges over-cover: filter hits with `GeoDistance.between(_:_:) * 1000 ≤ radiusMeters`.
    /// They under-cover in one place, exactly as geofire-common does: when the circle reaches
    /// a pole, the longitude span is 360°, all nine points fall on the centre's meridian, and
    /// only the centre's longitude half of the polar cap is covered.
    /// - Parameters:
    ///   - center: the circle's centre.
    ///   - radiusMeters: the circle's radius in **metres** (while `GeoDistance` returns km).
    /// - Precondition: `radiusMeters` is finite and ≥ 0 (geofire-common fails on negatives).
    /// Source: geofire-common `geohashQueryBounds(center, radiusInM)`; docs/reference/firestore-wire.md §5.2.
    public static func queryBounds(center: GeoLocation, radiusMeters: Double) -> [GeohashRange] {
        precondition(radiusMeters.isFinite && radiusMeters >= 0, "radius must be finite and non-negative")
        let queryBits = max(1, boundingBoxBits(center, sizeMeters: radiusMeters))
        let precision = (queryBits + bitsPerCharacter - 1) / bitsPerCharacter
        var bounds: [GeohashRange] = []
        for point in boundingBoxCoordinates(center, radiusMeters: radiusMeters) {
            let range = range(forGeohash: forLocation(point, precision: precision), bits: queryBits)
            if !bounds.contains(range) { bounds.append(range) }
        }
        return bounds
    }

    /// `boundingBoxBits`: the most geohash bits whose cells are still at least `sizeMeters`
    /// tall and wide around `center`'s latitude band, capped at 110. May be ≤ 0 for huge sizes.
    static func boundingBoxBits(_ center: GeoLocation, sizeMeters: Double) -> Int {
        let latitudeDelta = sizeMeters / metersPerDegreeLatitude
        let north = min(90, center.latitude + latitudeDelta)
        let south = max(-90, center.latitude - latitudeDelta)
        let latitudeBits = Int(latitudeBitsForResolution(sizeMeters).rounded(.down)) * 2
        let longitudeBitsNorth = Int(longitudeBitsForResolution(sizeMeters, latitude: north).rounded(.down)) * 2 - 1
        let longitudeBitsSouth = Int(longitudeBitsForResolution(sizeMeters, latitude: south).rounded(.down)) * 2 - 1
        return min(latitudeBits, longitudeBitsNorth, longitudeBitsSouth, maximumBitsPrecision)
    }

    /// `boundingBoxCoordinates`: the centre and eight points on the bounding box, in the order
    /// centre, W, E, N, NW, NE, S, SW, SE. Latitudes clamp to ±90; longitudes wrap.
    static func boundingBoxCoordinates(_ center: GeoLocation, radiusMeters: Double) -> [GeoLocation] {
        let latitudeDelta = radiusMeters / metersPerDegreeLatitude
        let north = min(90, center.latitude + latitudeDelta)
        let south = max(-90, center.latitude - latitudeDelta)
        let longitudeDelta = max(
            metersToLongitudeDegrees(radiusMeters, latitude: north),
            metersToLongitudeDegrees(radiusMeters, latitude: south))
        let west = wrapLongitude(center.longitude - longitudeDelta)
        let east = wrapLongitude(center.longitude + longitudeDelta)
        var points: [GeoLocation] = []
        points.reserveCapacity(9)
        for latitude in [center.latitude, north, south] {
            for longitude in [center.longitude, west, east] {
                points.append(GeoLocation(uncheckedLatitude: latitude, longitude: longitude))
            }
        }
        return points
    }

    /// `geohashQuery`: the range of all geohashes sharing the first `bits` bits of `geohash`.
    ///
    /// A hash shorter than `ceil(bits / 5)` gives `[hash, hash~]`. Otherwise the last kept
    /// character's unused low bits are cleared for `start`, and `end` is the next value, or
    /// `base~` when that would pass `z` (31).
    /// - Precondition: `geohash` uses only base32 characters; `bits ≥ 1`.
    static func range(forGeohash geohash: String, bits: Int) -> GeohashRange {
        precondition(bits >= 1, "bits must be positive")
        let characters = Array(geohash.utf8)
        let tilde = UInt8(ascii: "~")
        let precision = (bits + bitsPerCharacter - 1) / bitsPerCharacter
        guard characters.count >= precision else {
            return GeohashRange(start: geohash, end: geohash + "~")
        }
        let base = characters[..<(precision - 1)]
        guard let lastValue = base32.firstIndex(of: characters[precision - 1]) else {
            preconditionFailure("not a geohash: \(geohash)")
        }
        let unusedBits = bitsPerCharacter - (bits - base.count * bitsPerCharacter)
        let startValue = (lastValue >> unusedBits) << unusedBits
        let endValue = startValue + (1 << unusedBits)
        let start = base + [base32[startValue]]
        let end = base + [endValue > 31 ? tilde : base32[endValue]]
        return GeohashRange(start: String(decoding: start, as: UTF8.self), end: String(decoding: end, as: UTF8.self))
    }

    /// `metersToLongitudeDegrees`: degrees of longitude spanned by `distanceMeters` at
    /// `latitude` on the WGS 84 ellipsoid; 360 (or 0 for a zero distance) at the poles,
    /// never above 360.
    static func metersToLongitudeDegrees(_ distanceMeters: Double, latitude: Double) -> Double {
        let radians = GeoDistance.radians(fromDegrees: latitude)
        let numerator = cos(radians) * earthEquatorialRadiusMeters * Double.pi / 180
        let denominator = 1 / sqrt(1 - eccentricitySquared * sin(radians) * sin(radians))
        let degreesPerMeter = numerator * denominator
        if degreesPerMeter < epsilon {
            return distanceMeters > 0 ? 360 : 0
        }
        return min(360, distanceMeters / degreesPerMeter)
    }

    /// `longitudeBitsForResolution`: longitude bits needed for cells `resolutionMeters` wide at
    /// `latitude`; at least 1.
    static func longitudeBitsForResolution(_ resolutionMeters: Double, latitude: Double) -> Double {
        let degrees = metersToLongitudeDegrees(resolutionMeters, latitude: latitude)
        return abs(degrees) > 0.000001 ? max(1, log2JS(360 / degrees)) : 1
    }

    /// `latitudeBitsForResolution`: latitude bits needed for cells `resolutionMeters` tall;
    /// at most 110.
    static func latitudeBitsForResolution(_ resolutionMeters: Double) -> Double {
        min(log2JS(earthMeridionalCircumferenceMeters / 2 / resolutionMeters), Double(maximumBitsPrecision))
    }

    /// `wrapLongitude`: brings a longitude back into −180…180 (values inside are unchanged),
    /// with JavaScript's truncating `%`.
    static func wrapLongitude(_ longitude: Double) -> Double {
        if longitude <= 180 && longitude >= -180 { return longitude }
        let adjusted = longitude + 180
        if adjusted > 0 {
            return adjusted.truncatingRemainder(dividingBy: 360) - 180
        }
        return 180 - (-adjusted).truncatingRemainder(dividingBy: 360)
    }

    /// geofire-common's `log2`: `ln(x) / ln(2)`, kept instead of `Foundation.log2` because the
    /// two can differ in the last bit, which moves a `floor` at exact powers of two.
    static func log2JS(_ x: Double) -> Double { log(x) / log(2.0) }
}
