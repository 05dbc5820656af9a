/// A point in time with nanosecond precision: `google.protobuf.Timestamp`.
///
/// `seconds` counts from the Unix epoch (UTC); `nanos` is 0…999,999,999 and always
/// non-negative (negative instants have negative seconds). Valid range is
/// 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999999Z.
/// Source: googleapis `google/protobuf/timestamp.proto`.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// Nanoseconds within the second, 0…999,999,999.
    public var nanos: Int32

    /// Seconds of 0001-01-01T00:00:00Z.
    public static let minSeconds: Int64 = -62_135_596_800
    /// Seconds of 9999-12-31T23:59:59Z.
    public static let maxSeconds: Int64 = 253_402_300_799

    /// Creates a timestamp; `nanos` must already be normalised to 0…999,999,999.
    public init(seconds: Int64, nanos: Int32) {
        self.seconds = seconds
        self.nanos = nanos
    }

    /// Creates a timestamp from microseconds since the epoch.
    public init(microseconds: Int64) {
        var s = microseconds / 1_000_000
        var r = microseconds % 1_000_000
        if r < 0 { r += 1_000_000; s -= 1 }
        self.init(seconds: s, nanos: Int32(r * 1000))
    }

    /// True when seconds and nanos are within Firestore's range.
    public var isValid: Bool {
        seconds >= Self.minSeconds && seconds <= Self.maxSeconds && nanos >= 0 && nanos < 1_000_000_000
    }

    /// Microseconds since the epoch (nanoseconds truncated); saturates at the ends of `Int64`
    /// for instants far outside Firestore's range (`isValid`), never traps.
    public var microseconds: Int64 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = scaled.addingReportingOverflow(Int64(nanos / 1000))
        return overflow2 ? .max : sum
    }

    /// The same instant truncated to whole microseconds, as Firestore stores timestamps.
    public var truncatedToMicroseconds: Timestamp { Timestamp(seconds: seconds, nanos: nanos - nanos % 1000) }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.seconds != rhs.seconds ? lhs.seconds < rhs.seconds : lhs.nanos < rhs.nanos
    }

    /// RFC 3339 UTC with 0, 3, 6 or 9 fractional digits (proto3 JSON).
    public var description: String { rfc3339 }
}
