import FirestoreModel
import GoogleWire

/// Numbers in proto3 JSON: int64 as strings or numbers, doubles as numbers or strings
/// (`"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0"`, `"1.5"`), all parsed exactly.
/// Source: docs/reference/firestore-wire.md §1.7; proto3 JSON mapping (int64/double rows).
extension RESTCodec {
    /// An int64 field: a JSON number or a string of one, exactly in range
    /// (`"-9223372036854775808"` … `"9223372036854775807"`). Exponents are accepted when the
    /// value is integral (`1e3`, `5.0`), as the emulator accepts them.
    /// - Throws: `.invalidArgument` for fractions, out-of-range values or other JSON types.
    public static func decodeInt64(_ json: JSONValue, at path: String) throws(FirestoreError) -> Int64 {
        let text: String
        switch json {
        case .number(let t): text = t
        case .string(let t): text = t
        default: throw invalid(path, "expected a 64-bit integer, got \(json.typeName).")
        }
        guard let n = exactInt64(text) else {
            throw invalid(path, "\(json.serializedString) is not a 64-bit integer.")
        }
        return n
    }

    /// An int32 field (`offset`, `pageSize`, …), given as a number or a string.
    /// - Throws: `.invalidArgument` for non-integers or values outside int32.
    public static func decodeInt32(_ json: JSONValue, at path: String) throws(FirestoreError) -> Int32 {
        let n = try decodeInt64(json, at: path)
        guard let v = Int32(exactly: n) else { throw invalid(path, "\(n) is out of range for a 32-bit integer.") }
        return v
    }

    /// A double field: a JSON number, or a string holding `NaN`, `Infinity`, `-Infinity` or a
    /// JSON number (`"-0"`, `"1.5"`). Finite numbers that overflow (`1e400`) are rejected.
    /// - Throws: `.invalidArgument` for anything else.
    public static func decodeDouble(_ json: JSONValue, at path: String) throws(FirestoreError) -> Double {
        let text: String
        switch json {
        case .number(let t): text = t
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let t): text = t
        default: throw invalid(path, "expected a number, got \(json.typeName).")
        }
        guard isJSONNumber(text), let d = Double(text) else {
            throw invalid(path, "\(json.serializedString) is not a number.")
        }
        guard d.isFinite else { throw invalid(path, "\(text) is out of range for a double.") }
        return d
    }

    /// A JSON number for an integer (`.number("42")`); int64 *fields* use `encodeInt64String`.
    public static func encodeInt(_ n: Int64) -> JSONValue { .number(String(n)) }

    /// An int64 field as proto3 JSON writes it: a decimal string (`"42"`).
    public static func encodeInt64String(_ n: Int64) -> JSONValue { .string(String(n)) }

    /// A double as the emulator writes it: `NaN`/`Infinity`/`-Infinity` as strings, everything
    /// else as a JSON number in Java `Double.toString` form with the shortest round-trip
    /// digits (`1.0`, `0.001`, `1.0E7`, `1.0E-4`, `1.2345678901234568E20`, `-0.0`: negative
    /// zero keeps its sign, as production stores it; the emulator stores it as zero).
    public static func encodeDouble(_ d: Double) -> JSONValue {
        if d.isNaN { return .string("NaN") }
        if d.isInfinite { return .string(d < 0 ? "-Infinity" : "Infinity") }
        return .number(javaDoubleText(d))
    }

    /// Java `Double.toString` layout of a finite double, shortest round-trip digits (Java
    /// widens one-digit forms of tiny subnormals, `4.9E-324` vs our `5.0E-324`: same double).
    ///
    /// Plain decimal for 10⁻³ ≤ |d| < 10⁷ (at least one fraction digit), otherwise
    /// `d.dddE±n` with at least one fraction digit. Zero is `0.0` or `-0.0`, by its sign.
    static func javaDoubleText(_ d: Double) -> String {
        var out: [UInt8] = []
        appendJavaDoubleText(d, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `javaDoubleText(d)` as bytes (the form `writeValue` streams).
    static func appendJavaDoubleText(_ d: Double, to out: inout [UInt8]) {
        // In the plain range Swift's shortest text already has Java's layout (`123.375`,
        // `100.0`, `0.001`): appended as it is, the common case of every double answered.
        let m = d.magnitude
        if m >= 1e-3 && m < 1e7 {
            out.append(contentsOf: d.description.utf8)
            return
        }
        appendJavaDoubleTextFromDigits(d, to: &out)
    }

    /// `appendJavaDoubleText` rebuilt from the shortest digits and exponent (every range).
    static func appendJavaDoubleTextFromDigits(_ d: Double, to out: inout [UInt8]) {
        if d == 0 {
            out.append(contentsOf: (d.sign == .minus ? "-0.0" : "0.0").utf8)
            return
        }
        // Swift's description is the shortest round-trip text; take its digits and exponent.
        var digits: [UInt8] = []
        var pointPosition = 0  // value = 0.digits × 10^pointPosition
        var sawPoint = false
        var exponent = 0
        let text = Array(d.magnitude.description.utf8)
        var i = 0
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: ".") {
                sawPoint = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                exponent = Int(String(decoding: text[(i + 1)...], as: UTF8.self)) ?? 0
                break
            } else {
                if digits.isEmpty && c == UInt8(ascii: "0") {
                    if sawPoint { pointPosition -= 1 }
                } else {
                    digits.append(c)
                    if !sawPoint { pointPosition += 1 }
                }
            }
            i += 1
        }
        while digits.count > 1 && digits.last == UInt8(ascii: "0") { digits.removeLast() }
        pointPosition += exponent
        let scientific = pointPosition - 1  // d = d1.d2d3… × 10^scientific
        let zero = UInt8(ascii: "0")
        if d < 0 { out.append(UInt8(ascii: "-")) }
        if scientific >= -3 && scientific < 7 {
            if pointPosition <= 0 {
                out.append(contentsOf: "0.".utf8)
                out.append(contentsOf: repeatElement(zero, count: -pointPosition))
                out.append(contentsOf: digits)
            } else if digits.count <= pointPosition {
                out.append(contentsOf: digits)
                out.append(contentsOf: repeatElement(zero, count: pointPosition - digits.count))
                out.append(contentsOf: ".0".utf8)
            } else {
                out.append(contentsOf: digits[..<pointPosition])
                out.append(UInt8(ascii: "."))
                out.append(contentsOf: digits[pointPosition...])
            }
        } else {
            out.append(digits[0])
            out.append(UInt8(ascii: "."))
            if digits.count > 1 { out.append(contentsOf: digits[1...]) } else { out.append(zero) }
            out.append(UInt8(ascii: "E"))
            out.append(contentsOf: String(scientific).utf8)
        }
    }

    /// True when `text` matches the RFC 8259 number grammar.
    static func isJSONNumber(_ text: String) -> Bool {
        let b = Array(text.utf8)
        var i = 0
        func digit(_ k: Int) -> Bool { k < b.count && b[k] >= 48 && b[k] <= 57 }
        if i < b.count && b[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { return false }
        if b[i] == UInt8(ascii: "0") { i += 1 } else { while digit(i) { i += 1 } }
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { return false }
            while digit(i) { i += 1 }
        }
        if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            i += 1
            if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            guard digit(i) else { return false }
            while digit(i) { i += 1 }
        }
        return i == b.count
    }

    /// The exact int64 value of decimal text `[+-]?d+(.d+)?([eE][+-]?d+)?`, or nil when it is
    /// not integral, out of range or not of that form. Never rounds.
    static func exactInt64(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        var i = 0
        var negative = false
        if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) {
            negative = b[i] == UInt8(ascii: "-")
            i += 1
        }
        var digits: [UInt8] = []
        var intCount = 0
        func isDigit(_ k: Int) -> Bool { k < b.count && b[k] >= 48 && b[k] <= 57 }
        guard isDigit(i) else { return nil }
        while isDigit(i) {
            digits.append(b[i] - 48)
            intCount += 1
            i += 1
        }
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { return nil }
            while isDigit(i) {
                digits.append(b[i] - 48)
                i += 1
            }
        }
        var exponent = 0
        if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            i += 1
            var expNegative = false
            if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) {
                expNegative = b[i] == UInt8(ascii: "-")
                i += 1
            }
            guard isDigit(i) else { return nil }
            while isDigit(i) {
                exponent = min(exponent * 10 + Int(b[i] - 48), 100_000)
                i += 1
            }
            if expNegative { exponent = -exponent }
        }
        guard i == b.count else { return nil }
        // Drop leading zeros (in one step: a peer may send megabytes of them); the point
        // sits after `point` digits.
        let zeros = digits.firstIndex { $0 != 0 } ?? digits.count
        if zeros == digits.count { return 0 }
        digits.removeFirst(zeros)
        let point = intCount + exponent - zeros
        guard point > 0 else { return nil }  // 0.00ddd: not integral
        if point < digits.count {
            guard digits[point...].allSatisfy({ $0 == 0 }) else { return nil }
            digits.removeLast(digits.count - point)
        }
        guard point <= 19 else { return nil }
        digits.append(contentsOf: repeatElement(0, count: point - digits.count))
        // Accumulate negatively: Int64.min has no positive counterpart.
        var value: Int64 = 0
        for d in digits {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(Int64(d))
            if o1 || o2 { return nil }
            value = s
        }
        if negative { return value }
        return value == .min ? nil : -value
    }
}
