extension Timestamp {
    /// Formats as RFC 3339 in UTC, `Z` suffix, with 0, 3, 6 or 9 fractional digits —
    /// the fewest that represent `nanos` exactly (proto3 JSON mapping of Timestamp).
    public var rfc3339: String {
        var out: [UInt8] = []
        out.reserveCapacity(30)
        appendRFC3339(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `rfc3339` (ASCII, 20 to 30 bytes, nothing to escape in JSON) to `out`: the
    /// writers of every document's `createTime`/`updateTime` use it without a `String`.
    public func appendRFC3339(to out: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secOfDay = seconds - days * 86_400
        let (y, m, d) = Self.civil(fromDays: days)
        // Written into a stack buffer, then appended once (every document has two of these).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var n = 0
            func put(_ byte: UInt8) {
                buffer[n] = byte
                n += 1
            }
            func digits(_ v: Int64, _ width: Int) {
                // Zero-padded to `width`; a larger `v` keeps its low digits and a negative one
                // (never a valid field) writes zeros. Division by the constant 10 is a multiply.
                var rest = v < 0 ? 0 : UInt64(v)
                var i = n + width - 1
                while i >= n {
                    buffer[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                    i -= 1
                }
                n += width
            }
            digits(y, 4)
            put(UInt8(ascii: "-"))
            digits(m, 2)
            put(UInt8(ascii: "-"))
            digits(d, 2)
            put(UInt8(ascii: "T"))
            digits(secOfDay / 3600, 2)
            put(UInt8(ascii: ":"))
            digits(secOfDay / 60 % 60, 2)
            put(UInt8(ascii: ":"))
            digits(secOfDay % 60, 2)
            if nanos != 0 {
                let f = Int64(nanos)
                put(UInt8(ascii: "."))
                if f % 1_000_000 == 0 {
                    digits(f / 1_000_000, 3)
                } else if f % 1000 == 0 {
                    digits(f / 1000, 6)
                } else {
                    digits(f, 9)
                }
            }
            put(UInt8(ascii: "Z"))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Parses RFC 3339: `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`; `t` and `z` accepted.
    ///
    /// Returns nil for anything else, including out-of-range fields and instants outside
    /// 0001…9999. Source: RFC 3339 §5.6; proto3 JSON Timestamp.
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int64? {
            guard i + n <= b.count else { return nil }
            var v: Int64 = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int64(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2) else { return nil }
        guard i < b.count, b[i] == 84 || b[i] == 116 else { return nil }
        i += 1
        guard let hour = digits(2), expect(58), let minute = digits(2), expect(58), let second = digits(2) else {
            return nil
        }
        var nanos: Int64 = 0
        if i < b.count, b[i] == 46 {
            i += 1
            var count = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                guard count < 9 else { return nil }
                nanos = nanos * 10 + Int64(b[i] - 48)
                count += 1
                i += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<9 { nanos *= 10 }
        }
        var offset: Int64 = 0
        guard i < b.count else { return nil }
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45 {
            let sign: Int64 = b[i] == 45 ? -1 : 1
            i += 1
            guard let oh = digits(2), expect(58), let om = digits(2), oh < 24, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        guard month >= 1, month <= 12, day >= 1, day <= Self.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = Self.days(fromCivil: year, month, day)
        let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        self.init(seconds: secs, nanos: Int32(nanos))
        guard isValid else { return nil }
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
    static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Proleptic Gregorian date of a day count since 1970-01-01 (civil_from_days).
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}

/// Decimal text of integers, written without an intermediate `String`.
public enum DecimalText {
    /// Appends `v` in decimal (`-` then the digits, as `String(v)` writes it).
    public static func append(_ v: Int64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var rest = v.magnitude
            var i = 20
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
            if v < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<20]))
        }
    }
}
