/// Hex helpers for byte-level expectations. Whitespace in input is ignored, and so is any
/// `"text"` run, which stands for its UTF-8 bytes — so expectations can be transcribed the
/// way the reference annotates them (`0a 02 "ts" 10 01`).
enum Hex {
    /// Parses `"0a 02 \"ts\" 10 01"` into bytes; traps on malformed test input.
    static func bytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var nibble: UInt8?
        var inQuote = false
        for c in text.utf8 {
            if inQuote {
                if c == UInt8(ascii: "\"") { inQuote = false } else { out.append(c) }
                continue
            }
            if c == UInt8(ascii: "\"") {
                precondition(nibble == nil, "odd hex digit before a quote")
                inQuote = true
                continue
            }
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\t") { continue }
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: preconditionFailure("bad hex character \(c)")
            }
            if let high = nibble {
                out.append(high << 4 | v)
                nibble = nil
            } else {
                nibble = v
            }
        }
        precondition(nibble == nil && !inQuote, "odd number of hex digits or open quote")
        return out
    }

    /// Lower-case hex, bytes separated by spaces.
    static func string(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for (i, b) in bytes.enumerated() {
            if i > 0 { out.append(UInt8(ascii: " ")) }
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
