/// Text forms the rules runtime prints: numbers as Java does (the emulator runs on the JVM),
/// quoted strings, hex.
enum RulesFormat {
    /// Java `Double.toString`: `2.0`, `0.001`, `1.0E7`, `1.0E-4`, `NaN`, `Infinity`.
    static func double(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
        let magnitude = abs(d)
        if magnitude >= 1e-3 && magnitude < 1e7 {
            var s = "\(d)"  // shortest round-trip digits, plain notation in this range
            if !s.contains(".") && !s.contains("e") { s += ".0" }
            return s
        }
        // Scientific: decompose Swift's shortest digits, re-emit as d.dddE<exp>.
        var text = "\(magnitude)"
        var exp10 = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exp10 = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let intPart = pieces[0]
        let fracPart = pieces.count > 1 ? pieces[1] : ""
        var digits = Array(intPart + fracPart)
        // Position of the decimal point relative to the digit string start.
        var point = intPart.count + exp10
        while digits.first == "0" && digits.count > 1 {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == "0" && digits.count > 1 { digits.removeLast() }
        let head = String(digits[0])
        let tail = digits.count > 1 ? String(digits[1...]) : "0"
        return (d < 0 ? "-" : "") + head + "." + tail + "E" + String(point - 1)
    }

    /// `'text'` with `\\`, `\'`, newline, tab and CR escaped.
    static func quoted(_ s: String) -> String {
        var out = "'"
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "'"
    }

    private static let hexDigits = Array("0123456789ABCDEF")

    /// Two uppercase hex digits.
    static func hexByte(_ b: UInt8) -> String {
        String([hexDigits[Int(b >> 4)], hexDigits[Int(b & 15)]])
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation needed).
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[rest.startIndex..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
