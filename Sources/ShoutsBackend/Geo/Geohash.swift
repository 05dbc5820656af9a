/// Geohash encoding as geofire-common computes it, so hashes written by Hearth, by the Flutter
/// client and by geofire-common itself are byte-identical.
///
/// A geohash interleaves longitude and latitude bisection bits, longitude first, five bits
/// per base32 character. Source: geofire-common `geohashForLocation`, constants
/// `GEOHASH_PRECISION`, `BASE32`, `BITS_PER_CHAR`, `MAXIMUM_BITS_PRECISION`; docs/reference/firestore-wire.md §5, §5.1.
public enum Geohash {
    /// The geohash alphabet `0123456789bcdefghjkmnpqrstuvwxyz` as ASCII bytes (index = 5-bit value).
    public static let base32: [UInt8] = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// geofire-common's default geohash length: 10 characters.
    public static let defaultPrecision = 10

    /// Longest geohash geofire-common produces: 22 characters (110 bits).
    public static let maximumPrecision = 22

    /// Bits encoded by one geohash character.
    static let bitsPerCharacter = 5

    /// `MAXIMUM_BITS_PRECISION`: 22 × 5 = 110 bits.
    static let maximumBitsPrecision = 110

    /// The geohash of `location`, `precision` characters long.
    ///
    /// For each bit the current range is halved at its midpoint; a coordinate strictly greater
    /// than the midpoint takes bit 1 (upper half), otherwise bit 0 — so a point exactly on a
    /// cell edge belongs to the lower (south/west) cell: `[0,0]` → `7zzzzzzzzz`.
    /// Complexity O(precision).
    /// - Precondition: `precision` is in 1…22 (geofire-common throws outside it; here it is
    ///   a programmer error, precisions are constants).
    /// Source: geofire-common `geohashForLocation(location, precision)`; docs/reference/firestore-wire.md §5.1.
    public static func forLocation(_ location: GeoLocation, precision: Int = defaultPrecision) -> String {
        precondition((1...maximumPrecision).contains(precision), "geohash precision must be in 1...22")
        var latitudeRange = (min: -90.0, max: 90.0)
        var longitudeRange = (min: -180.0, max: 180.0)
        var hash: [UInt8] = []
        hash.reserveCapacity(precision)
        var value = 0
        var bitCount = 0
        var isLongitudeBit = true
        while hash.count < precision {
            if isLongitudeBit {
                value = value << 1 | bisect(location.longitude, &longitudeRange)
            } else {
                value = value << 1 | bisect(location.latitude, &latitudeRange)
            }
            isLongitudeBit.toggle()
            bitCount += 1
            if bitCount == bitsPerCharacter {
                hash.append(base32[value])
                value = 0
                bitCount = 0
            }
        }
        return String(decoding: hash, as: UTF8.self)
    }

    /// One bisection step: 1 and keep the upper half when `coordinate` is strictly above the
    /// midpoint, else 0 and keep the lower half.
    private static func bisect(_ coordinate: Double, _ range: inout (min: Double, max: Double)) -> Int {
        let mid = (range.min + range.max) / 2
        if coordinate > mid {
            range.min = mid
            return 1
        }
        range.max = mid
        return 0
    }
}
