/// One geohash query bound: every geohash `g` with `start ≤ g ≤ end` (byte order) belongs to it.
///
/// geofire-common's `GeohashRange` (`[start, end]`). `end` may end in `~` (0x7E), which sorts
/// after every base32 character, to mean "every hash with this prefix". Run it as
/// `orderBy("geohash").startAt(start).endAt(end)`, inclusive at both ends.
/// Source: geofire-common `geohashQuery`, `geohashQueryBounds`; docs/reference/firestore-wire.md §5.2.
public struct GeohashRange: Sendable, Hashable, CustomStringConvertible {
    /// First geohash of the range (inclusive).
    public let start: String
    /// Last geohash of the range (inclusive, as `endAt`).
    public let end: String

    /// Creates a range; `start` should not sort after `end`.
    public init(start: String, end: String) {
        self.start = start
        self.end = end
    }

    /// True when `geohash` lies in `start…end`, comparing UTF-8 bytes as Firestore orders
    /// strings — what a `startAt(start).endAt(end)` query on `geohash` returns.
    public func contains(_ geohash: String) -> Bool {
        !geohash.utf8.lexicographicallyPrecedes(start.utf8) && !end.utf8.lexicographicallyPrecedes(geohash.utf8)
    }

    /// `[start,end]`.
    public var description: String { "[\(start),\(end)]" }
}
