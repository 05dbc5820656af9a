import FirestoreModel
import FoundationEssentials
import Glibc

/// `timestamp`, `duration` and `latlng` methods and namespaces (docs/reference/security-rules.md §4.10–§4.12).
extension Library {
    /// The receiver as a timestamp.
    static func receiverTimestamp(_ c: Builtin.Call) -> Timestamp {
        if case .timestamp(let t) = c.receiver { return t }
        return Timestamp(seconds: 0, nanos: 0)
    }

    /// Days since 1970-01-01 for a timestamp (floor division).
    static func epochDays(_ t: Timestamp) -> Int64 { t.seconds >= 0 ? t.seconds / 86_400 : (t.seconds - 86_399) / 86_400 }

    /// Proleptic Gregorian (year, month, day) of a day count (H. Hinnant's civil_from_days).
    static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Day count of a civil date (days_from_civil).
    static func days(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        return era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
    }

    /// A timestamp accessor returning an int.
    static func timestampPart(_ name: String, _ doc: String, _ f: @escaping @Sendable (Timestamp) -> Int64) -> Builtin {
        Builtin(name, on: .timestamp, ["timestamp.\(name)() -> int"], arity: 0...0, doc: doc) { c in .int(f(receiverTimestamp(c))) }
    }

    /// `timestamp` methods and namespace (docs/reference/security-rules.md §4.10).
    static let timestampEntries: [Builtin] = [
        timestampPart("year", "Year (UTC).") { civil(epochDays($0)).0 },
        timestampPart("month", "Month 1-12 (UTC).") { civil(epochDays($0)).1 },
        timestampPart("day", "Day of month 1-31 (UTC).") { civil(epochDays($0)).2 },
        timestampPart("hours", "Hour 0-23 (UTC).") { ($0.seconds - epochDays($0) * 86_400) / 3600 },
        timestampPart("minutes", "Minute 0-59.") { ($0.seconds - epochDays($0) * 86_400) / 60 % 60 },
        timestampPart("seconds", "Second 0-59.") { ($0.seconds - epochDays($0) * 86_400) % 60 },
        timestampPart("nanos", "Nanoseconds within the second.") { Int64($0.nanos) },
        timestampPart("dayOfWeek", "ISO weekday, Monday = 1 … Sunday = 7.") { ((epochDays($0) % 7 + 7 + 3) % 7) + 1 },
        timestampPart("dayOfYear", "Day of the year 1-366.") { t in
            let d = epochDays(t)
            return d - days(civil(d).0, 1, 1) + 1
        },
        timestampPart("toMillis", "Milliseconds since the epoch.") { $0.seconds * 1000 + Int64($0.nanos) / 1_000_000 },
        Builtin("date", on: .timestamp, ["timestamp.date() -> timestamp"], arity: 0...0, doc: "The timestamp truncated to 00:00 UTC.") {
            c in
            .timestamp(Timestamp(seconds: epochDays(receiverTimestamp(c)) * 86_400, nanos: 0))
        },
        Builtin("time", on: .timestamp, ["timestamp.time() -> duration"], arity: 0...0, doc: "Duration since midnight UTC.") {
            c throws(RulesEvalError) in
            let t = receiverTimestamp(c)
            guard let d = RulesDuration(seconds: t.seconds - epochDays(t) * 86_400, nanos: Int64(t.nanos)) else {
                throw c.fail(RulesMessages.overflow)
            }
            return .duration(d)
        },
        Builtin("timestamp.value", ["timestamp.value(int) -> timestamp"], arity: 1...1, doc: "Timestamp from epoch milliseconds.") {
            c throws(RulesEvalError) in
            let ms = try c.int(0)
            let s = ms / 1000 - (ms % 1000 < 0 ? 1 : 0)
            guard s >= Timestamp.minSeconds, s <= Timestamp.maxSeconds else { throw c.fail("Timestamp out of range.") }
            return .timestamp(Timestamp(seconds: s, nanos: Int32((ms - s * 1000) * 1_000_000)))
        },
        Builtin("timestamp.date", ["timestamp.date(int, int, int) -> timestamp"], arity: 3...3, doc: "Midnight UTC of year, month, day.") {
            c throws(RulesEvalError) in
            let (y, m, d) = (try c.int(0), try c.int(1), try c.int(2))
            guard (1...9999).contains(y), (1...12).contains(m), d >= 1, d <= daysIn(m, y) else { throw c.fail("Invalid date.") }
            return .timestamp(Timestamp(seconds: days(y, m, d) * 86_400, nanos: 0))
        },
    ]

    /// Days in month `m` of year `y` (Gregorian).
    static func daysIn(_ m: Int64, _ y: Int64) -> Int64 {
        switch m {
        case 2: return (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The receiver as a duration.
    static func receiverDuration(_ c: Builtin.Call) -> RulesDuration {
        if case .duration(let d) = c.receiver { return d }
        return .zero
    }

    /// Nanoseconds per `duration.value` unit.
    static let unitNanos: [String: Int64] = [
        "w": 604_800_000_000_000, "d": 86_400_000_000_000, "h": 3_600_000_000_000, "m": 60_000_000_000,
        "s": 1_000_000_000, "ms": 1_000_000, "ns": 1,
    ]

    /// `duration` methods and namespace (docs/reference/security-rules.md §4.11).
    static let durationEntries: [Builtin] = [
        Builtin("seconds", on: .duration, ["duration.seconds() -> int"], arity: 0...0, doc: "Whole seconds (signed).") { c in
            .int(receiverDuration(c).seconds)
        },
        Builtin("nanos", on: .duration, ["duration.nanos() -> int"], arity: 0...0, doc: "Nanoseconds beyond the seconds (signed).") { c in
            .int(Int64(receiverDuration(c).nanos))
        },
        Builtin("duration.value", ["duration.value(int, string) -> duration"], arity: 2...2, doc: "Magnitude in a unit: w d h m s ms ns.") {
            c throws(RulesEvalError) in
            let n = try c.int(0)
            let unit = try c.string(1)
            guard let per = unitNanos[unit] else { throw c.fail("Invalid duration unit '\(unit)'; expected one of w, d, h, m, s, ms, ns.") }
            let perSecond: Int64 = 1_000_000_000
            let d: RulesDuration?
            if per >= perSecond {
                let (s, o) = n.multipliedReportingOverflow(by: per / perSecond)
                d = o ? nil : RulesDuration(seconds: s, nanos: 0)
            } else {
                d = RulesDuration(seconds: n / (perSecond / per), nanos: (n % (perSecond / per)) * per)
            }
            guard let d else { throw c.fail("Duration out of range.") }
            return .duration(d)
        },
        Builtin(
            "duration.time", ["duration.time(int, int, int, int) -> duration"], arity: 4...4, doc: "Hours, minutes, seconds, nanoseconds."
        ) {
            c throws(RulesEvalError) in
            let (h, m, s, ns) = (try c.int(0), try c.int(1), try c.int(2), try c.int(3))
            let (hs, o1) = h.multipliedReportingOverflow(by: 3600)
            let (ms, o2) = m.multipliedReportingOverflow(by: 60)
            let (sum1, o3) = hs.addingReportingOverflow(ms)
            let (sum2, o4) = sum1.addingReportingOverflow(s)
            guard !(o1 || o2 || o3 || o4), let d = RulesDuration(seconds: sum2, nanos: ns) else { throw c.fail("Duration out of range.") }
            return .duration(d)
        },
        Builtin("duration.abs", ["duration.abs(duration) -> duration"], arity: 1...1, doc: "Absolute value.") { c throws(RulesEvalError) in
            guard case .duration(let d) = c.args[0] else { throw c.unsupported() }
            guard let a = RulesDuration(seconds: abs(d.seconds), nanos: abs(Int64(d.nanos))) else { throw c.fail("Duration out of range.") }
            return .duration(a)
        },
    ]

    /// The receiver as a point.
    static func receiverLatLng(_ c: Builtin.Call) -> GeoPoint {
        if case .latlng(let g) = c.receiver { return g }
        return GeoPoint(latitude: 0, longitude: 0)
    }

    /// Mean Earth radius used for distances, metres (S2's `S2Earth` radius).
    static let earthRadiusMeters = 6_371_010.0

    /// `latlng` methods and namespace (docs/reference/security-rules.md §4.12).
    static let latlngEntries: [Builtin] = [
        Builtin("latitude", on: .latlng, ["latlng.latitude() -> float"], arity: 0...0, doc: "Degrees north.") { c in
            .float(receiverLatLng(c).latitude)
        },
        Builtin("longitude", on: .latlng, ["latlng.longitude() -> float"], arity: 0...0, doc: "Degrees east.") { c in
            .float(receiverLatLng(c).longitude)
        },
        Builtin(
            "distance", on: .latlng, ["latlng.distance(latlng) -> float"], arity: 1...1, doc: "Great-circle distance in metres (haversine)."
        ) {
            c throws(RulesEvalError) in
            guard case .latlng(let b) = c.args[0] else { throw c.unsupported() }
            let a = receiverLatLng(c)
            return .float(haversineMeters(a, b))
        },
        Builtin(
            "latlng.value", ["latlng.value(float, float) -> latlng"], arity: 2...2,
            doc: "A point; latitude in [-90,90], longitude in [-180,180]."
        ) {
            c throws(RulesEvalError) in
            let lat = try c.number(0)
            let lng = try c.number(1)
            guard lat >= -90, lat <= 90, lng >= -180, lng <= 180 else {
                throw c.fail(
                    "Latitude should be in [-90,90] range and longitude should be in [-180,180] range. latitude: \(RulesFormat.double(lat)), longitude: \(RulesFormat.double(lng))."
                )
            }
            return .latlng(GeoPoint(latitude: lat, longitude: lng))
        },
    ]

    /// Great-circle distance in metres on a sphere of `earthRadiusMeters`.
    static func haversineMeters(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad
        let dLng = (b.longitude - a.longitude) * rad
        let s1 = sin(dLat / 2)
        let s2 = sin(dLng / 2)
        let h = s1 * s1 + cos(a.latitude * rad) * cos(b.latitude * rad) * s2 * s2
        return 2 * earthRadiusMeters * asin(min(1, h.squareRoot()))
    }
}

extension RulesDuration {
    /// Zero length.
    static let zero = RulesDuration(normalizedSeconds: 0, nanos: 0)
}
