import FoundationEssentials
import GoogleWire

/// Type URLs of the integer wrappers the iOS SDK puts around 64-bit integers. Source: docs/reference/firestore-wire.md §3.3.
enum CallableWrapperType {
    /// `google.protobuf.Int64Value`.
    static let int64 = "type.googleapis.com/google.protobuf.Int64Value"
    /// `google.protobuf.UInt64Value`.
    static let uint64 = "type.googleapis.com/google.protobuf.UInt64Value"
}

extension CallableValue {
    /// Largest integer magnitude JavaScript numbers hold exactly (2^53).
    static let maxSafeInteger: Int64 = 9_007_199_254_740_992

    /// Decodes a parsed JSON value, unwrapping Int64Value/UInt64Value.
    ///
    /// A number without fraction or exponent that fits in Int64 is an int; any other number
    /// (integers beyond Int64 included) a double. An object with a non-null `@type` member
    /// must be one of the two integer wrappers with a string `value` holding an integer (or a
    /// finite decimal number). A later duplicate member wins.
    /// - Throws: `INVALID_ARGUMENT` for any other `@type`, an unparsable wrapper `value`, or a
    ///   number beyond `Double`'s range (`1e400`). firebase-functions answers these with
    ///   INTERNAL; a client's bad data is not a server fault, so Hearth answers 400
    ///   (documented deviation).
    /// Source: docs/reference/firestore-wire.md §3.3; firebase-functions `decode`.
    public init(json: JSONValue) throws(CallableError) {
        switch json {
        case .null:
            self = .null
        case .bool(let b):
            self = .bool(b)
        case .string(let s):
            self = .string(s)
        case .number(let text):
            if let i = Int64(text) {
                self = .int(i)
            } else if let d = Double(text), d.isFinite {
                self = .double(d)
            } else {
                throw .invalidArgument(CallableWire.badRequest)
            }
        case .array(let elements):
            var out: [CallableValue] = []
            out.reserveCapacity(elements.count)
            for e in elements { out.append(try CallableValue(json: e)) }
            self = .array(out)
        case .object(let members):
            if let type = members.last(where: { $0.key == "@type" })?.value, type != .null {
                self = try Self.unwrap(type: type, value: members.last(where: { $0.key == "value" })?.value)
                return
            }
            var out: [String: CallableValue] = [:]
            out.reserveCapacity(members.count)
            for m in members { out[m.key] = try CallableValue(json: m.value) }
            self = .object(out)
        case .fragment(let bytes):
            guard let parsed = try? JSONValue.parse(bytes, maxDepth: CallableWire.maxDepth) else {
                throw .invalidArgument(CallableWire.badRequest)
            }
            self = try CallableValue(json: parsed)
        }
    }

    private static func unwrap(type: JSONValue, value: JSONValue?) throws(CallableError) -> CallableValue {
        guard case .string(let type) = type, type == CallableWrapperType.int64 || type == CallableWrapperType.uint64,
            case .string(let text)? = value
        else {
            throw .invalidArgument("Data cannot be decoded from JSON: unsupported @type wrapper.")
        }
        if type == CallableWrapperType.int64, let i = Int64(text) { return .int(i) }
        if type == CallableWrapperType.uint64, let u = UInt64(text) {
            return u > UInt64(Int64.max) ? .double(Double(u)) : .int(Int64(u))
        }
        if let d = Double(text), d.isFinite { return .double(d) }
        throw .invalidArgument(
            "Data cannot be decoded from JSON: wrapper value \"\(text.prefix(40))\" is not a number.")
    }

    /// The value as compact UTF-8 JSON, object keys sorted (deterministic output).
    ///
    /// Integers beyond ±2^53 are written as Int64Value wrappers (the protocol's form for 64-bit
    /// integers, docs/reference/firestore-wire.md §3.3): the digits stay exact on the wire, and iOS
    /// decodes them exactly, though JavaScript's `Number()` still rounds; every other value is plain JSON.
    /// - Throws: `INTERNAL` ("INTERNAL") for a NaN or infinite double, which JSON cannot
    ///   carry — firebase-functions' encoder fails the same way (docs/reference/firestore-wire.md §3.3).
    public func jsonBytes() throws(CallableError) -> [UInt8] {
        var out: [UInt8] = []
        try write(into: &out)
        return out
    }

    /// Appends the value's JSON to `out`.
    /// - Throws: `INTERNAL` for a non-finite double.
    func write(into out: inout [UInt8]) throws(CallableError) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .int(let i):
            if i.magnitude <= UInt64(Self.maxSafeInteger) {
                out += Array(String(i).utf8)
            } else {
                try CallableValue.object(["@type": .string(CallableWrapperType.int64), "value": .string(String(i))])
                    .write(into: &out)
            }
        case .double(let d):
            guard d.isFinite else { throw .internalError }
            out += Array(d.description.utf8)
        case .string(let s): JSONString.write(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, e) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try e.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, key) in o.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.write(key, into: &out)
                out.append(UInt8(ascii: ":"))
                try o[key, default: .null].write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

/// JSON string literal encoding (RFC 8259 §7): quotes, backslashes and control characters
/// escaped, everything else written as UTF-8.
enum JSONString {
    /// Appends `s` as a quoted JSON string.
    static func write(_ s: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out += [hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
