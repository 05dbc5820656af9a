import Testing

@testable import FirestoreModel

@Suite struct TimestampTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0), Int32(0)), ("1970-01-01T00:00:00.1Z", 0, 100_000_000),
        ("1970-01-01T00:00:00.000000001Z", 0, 1), ("1969-12-31T23:59:59.999999Z", -1, 999_999_000),
        ("2024-02-29T12:00:00+01:00", 1_709_204_400, 0), ("2024-02-29T11:00:00Z", 1_709_204_400, 0),
        ("2024-01-02T03:04:05.5+05:30", 1_704_144_845, 500_000_000), ("2024-01-01T20:00:00-08:00", 1_704_168_000, 0),
        ("2024-01-02t03:04:05z", 1_704_164_645, 0), ("0001-01-01T00:00:00Z", Timestamp.minSeconds, 0),
        ("9999-12-31T23:59:59.999999999Z", Timestamp.maxSeconds, 999_999_999), ("2000-02-29T00:00:00Z", 951_782_400, 0),
        ("0001-01-01T01:00:00+01:00", Timestamp.minSeconds, 0), ("9999-12-31T23:59:59-00:00", Timestamp.maxSeconds, 0),
    ])
    func parses(_ text: String, _ seconds: Int64, _ nanos: Int32) {
        #expect(Timestamp(rfc3339: text) == Timestamp(seconds: seconds, nanos: nanos))
    }

    @Test(arguments: [
        "", "2024-01-02", "2024-01-02T03:04:05", "2024-01-02 03:04:05Z", "2024-1-02T03:04:05Z", "2024-01-02T03:04:05.Z",
        "2024-01-02T03:04:05.1234567891Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
        "2024-00-01T00:00:00Z", "2024-04-31T00:00:00Z", "2024-01-00T00:00:00Z", "2024-01-01T24:00:00Z",
        "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z", "2024-01-01T00:00:00+24:00", "2024-01-01T00:00:00+01",
        "2024-01-01T00:00:00+0100", "0000-12-31T23:59:59Z", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01",
        "10000-01-01T00:00:00Z", "2024-01-01T00:00:00Zx", "+2024-01-01T00:00:00Z", "２０２４-01-01T00:00:00Z",
    ])
    func rejects(_ text: String) {
        #expect(Timestamp(rfc3339: text) == nil, "\(text)")
    }

    @Test(arguments: [
        (Int64(0), Int32(0), "1970-01-01T00:00:00Z"), (0, 100_000_000, "1970-01-01T00:00:00.100Z"),
        (0, 120_000_000, "1970-01-01T00:00:00.120Z"), (0, 123_000, "1970-01-01T00:00:00.000123Z"),
        (0, 123_456_000, "1970-01-01T00:00:00.123456Z"), (0, 123_456_700, "1970-01-01T00:00:00.123456700Z"),
        (0, 1, "1970-01-01T00:00:00.000000001Z"), (-1, 999_999_000, "1969-12-31T23:59:59.999999Z"),
        (-86_400, 0, "1969-12-31T00:00:00Z"), (-86_401, 0, "1969-12-30T23:59:59Z"),
        (Timestamp.minSeconds, 0, "0001-01-01T00:00:00Z"), (Timestamp.maxSeconds, 999_999_999, "9999-12-31T23:59:59.999999999Z"),
        (951_782_400, 0, "2000-02-29T00:00:00Z"), (4_107_542_400, 0, "2100-03-01T00:00:00Z"),
    ])
    func formats(_ seconds: Int64, _ nanos: Int32, _ text: String) {
        let t = Timestamp(seconds: seconds, nanos: nanos)
        #expect(t.rfc3339 == text)
        #expect(t.description == text)
        #expect(Timestamp(rfc3339: text) == t)
    }

    /// Every day from 0001 to 9999 in steps formats and parses back (civil-date round trip).
    @Test func civilDatesRoundTrip() {
        var s = Timestamp.minSeconds
        while s <= Timestamp.maxSeconds {
            let t = Timestamp(seconds: s, nanos: 0)
            #expect(Timestamp(rfc3339: t.rfc3339) == t)
            s += 86_400 * 37 + 3_601
        }
    }

    @Test func rangeAndMicroseconds() {
        #expect(Timestamp(seconds: Timestamp.minSeconds, nanos: 0).isValid)
        #expect(!Timestamp(seconds: Timestamp.minSeconds - 1, nanos: 999_999_999).isValid)
        #expect(!Timestamp(seconds: Timestamp.maxSeconds + 1, nanos: 0).isValid)
        #expect(!Timestamp(seconds: 0, nanos: -1).isValid)
        #expect(!Timestamp(seconds: 0, nanos: 1_000_000_000).isValid)
        #expect(Timestamp(microseconds: -1) == Timestamp(seconds: -1, nanos: 999_999_000))
        #expect(Timestamp(microseconds: 1_500_000) == Timestamp(seconds: 1, nanos: 500_000_000))
        #expect(Timestamp(seconds: -1, nanos: 999_999_000).microseconds == -1)
        #expect(Timestamp(seconds: 1, nanos: 999_999_999).truncatedToMicroseconds == Timestamp(seconds: 1, nanos: 999_999_000))
        #expect(Timestamp(seconds: 0, nanos: 5) < Timestamp(seconds: 0, nanos: 6))
        #expect(Timestamp(seconds: -1, nanos: 999_999_999) < Timestamp(seconds: 0, nanos: 0))
    }
}
