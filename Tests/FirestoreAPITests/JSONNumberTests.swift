import DeterministicRandom
import Foundation
import FirestoreModel
import GoogleWire
import Testing

@testable import FirestoreAPI

@Suite struct JSONNumberTests {
    @Test(arguments: [
        ("0", 0), ("-0", 0), ("42", 42), ("+5", 5), ("05", 5), ("1e3", 1000), ("5.0", 5), ("1.5e1", 15), ("100e-2", 1),
        ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min), ("922337203685477580.7e1", Int64.max),
        ("0.0000e5", 0), ("-1E18", -1_000_000_000_000_000_000),
    ] as [(String, Int64)])
    func exactIntegers(_ text: String, _ expected: Int64) {
        #expect(RESTCodec.exactInt64(text) == expected)
    }

    @Test(arguments: [
        "9223372036854775808", "-9223372036854775809", "1.5", "1e-1", "1e19", "", "-", "1e", "abc", " 1", "1 ", "0x10",
        "1e999999999", "99999999999999999999",
    ])
    func inexactIntegersAreRejected(_ text: String) {
        #expect(RESTCodec.exactInt64(text) == nil)
    }

    /// Long inputs stay linear: 200 kB of leading zeros is parsed, not spun on (quadratic would take minutes).
    @Test func longIntegerTextIsLinear() {
        let zeros = String(repeating: "0", count: 200_000)
        #expect(RESTCodec.exactInt64(zeros + "42") == 42)
        #expect(RESTCodec.exactInt64("1" + zeros) == nil)
        #expect(RESTCodec.exactInt64("0." + zeros + "1") == nil)
        #expect(RESTCodec.exactInt64("1." + zeros) == 1)
    }

    @Test func decodeInt64AcceptsStringsAndNumbers() throws {
        #expect(try RESTCodec.decodeInt64(.string("-9223372036854775808"), at: "x") == .min)
        #expect(try RESTCodec.decodeInt64(.number("9223372036854775807"), at: "x") == .max)
        #expect(throws: FirestoreError.invalidArgument("Invalid value at 'x': \"9223372036854775808\" is not a 64-bit integer.")) {
            try RESTCodec.decodeInt64(.string("9223372036854775808"), at: "x")
        }
        #expect(throws: FirestoreError.self) { try RESTCodec.decodeInt64(.bool(true), at: "x") }
        #expect(throws: FirestoreError.self) { try RESTCodec.decodeInt32(.number("2147483648"), at: "x") }
        #expect(try RESTCodec.decodeInt32(.number("-2147483648"), at: "x") == .min)
    }

    @Test func decodeDoubleForms() throws {
        #expect(try RESTCodec.decodeDouble(.number("1.5"), at: "x") == 1.5)
        #expect(try RESTCodec.decodeDouble(.string("1.5"), at: "x") == 1.5)
        #expect(try RESTCodec.decodeDouble(.string("NaN"), at: "x").isNaN)
        #expect(try RESTCodec.decodeDouble(.string("Infinity"), at: "x") == .infinity)
        #expect(try RESTCodec.decodeDouble(.string("-Infinity"), at: "x") == -.infinity)
        let negZero = try RESTCodec.decodeDouble(.string("-0"), at: "x")
        #expect(negZero == 0 && negZero.sign == .minus)
        #expect(try RESTCodec.decodeDouble(.number("-0.0"), at: "x").sign == .minus)
        #expect(try RESTCodec.decodeDouble(.number("9007199254740993"), at: "x") == 9_007_199_254_740_992)
        #expect(try RESTCodec.decodeDouble(.number("1e-400"), at: "x") == 0)
        for bad in [JSONValue.number("1e400"), .number("-1e309"), .string("nan"), .string("inf"), .string("0x1p3"), .string(" 1"), .null, .bool(false)] {
            #expect(throws: FirestoreError.self) { try RESTCodec.decodeDouble(bad, at: "x") }
        }
    }

    /// Java `Double.toString` layout, as the emulator writes doubles (json_roundtrip corpus).
    @Test(arguments: [
        (1.0, "1.0"), (-1.0, "-1.0"), (0.0, "0.0"), (-0.0, "-0.0"), (0.1, "0.1"), (1.5, "1.5"), (100.0, "100.0"),
        (1234567.0, "1234567.0"), (9999999.0, "9999999.0"), (1e7, "1.0E7"), (12345678.9, "1.23456789E7"),
        (0.001, "0.001"), (0.0001, "1.0E-4"), (1e-7, "1.0E-7"), (1e21, "1.0E21"), (1.2345678901234568e20, "1.2345678901234568E20"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157E308"), (123.456, "123.456"),
        (0.30000000000000004, "0.30000000000000004"), (9_007_199_254_740_992, "9.007199254740992E15"), (-2.5e-5, "-2.5E-5"),
    ] as [(Double, String)])
    func javaDoubleText(_ d: Double, _ expected: String) throws {
        #expect(RESTCodec.javaDoubleText(d) == expected)
        #expect(RESTCodec.isJSONNumber(expected))
        let back = try RESTCodec.decodeDouble(.number(expected), at: "x")
        #expect(back == d)
    }

    /// Java widens a one-digit shortest form to the closest two-digit decimal (`4.9E-324`);
    /// that differs from the shortest form only for subnormals with under ~7 significant
    /// bits. Both texts read back as the same double, so the shortest is kept.
    @Test func smallestSubnormalKeepsShortestDigits() throws {
        #expect(RESTCodec.javaDoubleText(.leastNonzeroMagnitude) == "5.0E-324")
        #expect(try RESTCodec.decodeDouble(.number("4.9E-324"), at: "x") == .leastNonzeroMagnitude)
    }

    @Test func encodeDoubleSpecials() {
        #expect(RESTCodec.encodeDouble(.nan) == .string("NaN"))
        #expect(RESTCodec.encodeDouble(.infinity) == .string("Infinity"))
        #expect(RESTCodec.encodeDouble(-.infinity) == .string("-Infinity"))
        #expect(RESTCodec.encodeDouble(-0.0) == .number("-0.0"))  // the sign is kept, as production keeps it
    }

    @Test func everyShortestTextRoundTrips() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<5000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let text = RESTCodec.javaDoubleText(d)
            #expect(RESTCodec.isJSONNumber(text), "\(text)")
            let back = try RESTCodec.decodeDouble(.number(text), at: "x")
            #expect(back == d || (d == 0 && back == 0), "\(d) → \(text) → \(back)")
        }
    }

    /// The plain-range shortcut (Swift's own text) writes what the digit-by-digit layout
    /// writes, at both edges of the range and across it.
    @Test func plainRangeShortcutMatchesTheLayout() {
        var rng = SplitMix64(seed: 11)
        var values: [Double] = [1e-3, 1e-3.nextUp, 1e7.nextDown, -1e-3, -9_999_999.999, 0.5, 100.0, 123.375, 37.77, -122.41]
        for _ in 0..<5000 {
            let unit = Double(rng.next() >> 11) / Double(1 << 53)
            values.append((rng.next() & 1 == 0 ? 1 : -1) * 1e-3 * pow(1e10, unit))  // log-uniform over the range
        }
        for d in values where d.magnitude >= 1e-3 && d.magnitude < 1e7 {
            var fast: [UInt8] = []
            RESTCodec.appendJavaDoubleText(d, to: &fast)
            var layout: [UInt8] = []
            RESTCodec.appendJavaDoubleTextFromDigits(d, to: &layout)
            #expect(fast == layout, "\(d): \(String(decoding: fast, as: UTF8.self)) vs \(String(decoding: layout, as: UTF8.self))")
        }
    }
}
