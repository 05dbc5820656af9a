import FirestoreModel

/// A parsed JSON value with the byte offset at which it and each nested value start, for
/// diagnostics that name a line and column (configuration files, not request bodies).
///
/// `children` mirrors the value: an array's elements or an object's member values, in source
/// order; empty for scalars. Build with `JSONValue.parseLocated(_:maxDepth:)`.
public struct JSONLocatedValue: Sendable, Hashable {
    /// The value.
    public var value: JSONValue
    /// Byte offset of its first character in the parsed text.
    public var offset: Int
    /// Located array elements or member values, in order.
    public var children: [JSONLocatedValue]

    /// Creates a located value.
    public init(value: JSONValue, offset: Int, children: [JSONLocatedValue] = []) {
        self.value = value
        self.offset = offset
        self.children = children
    }

    /// The located members of an object, in source order (duplicates included); empty for
    /// any other value.
    public var members: [(key: String, value: JSONLocatedValue)] {
        guard case .object(let ms) = value else { return [] }
        return zip(ms, children).map { ($0.key, $1) }
    }

    /// The first member named `key`, when `self` is an object.
    public subscript(key: String) -> JSONLocatedValue? {
        members.first { $0.key == key }?.value
    }
}

/// Malformed JSON text: where the reader stopped and why.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte offset at which the text stopped being valid JSON.
    public var offset: Int
    /// What was wrong (`expected ',' or '}'`).
    public var reason: String

    /// Creates an error.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "byte \(offset): \(reason)" }
}

/// Line and column of byte offsets in a text: lines split at LF, 1-based; columns count
/// Unicode scalars from the line start, 1-based, not counting a byte order mark at the start
/// of the text (editors do not show it).
public struct JSONSourceLines: Sendable {
    private let bytes: [UInt8]
    private let lineStarts: [Int]

    /// Indexes `bytes`' line starts. - Complexity: O(bytes.count).
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        lineStarts = starts
    }

    /// The 1-based line and column of byte `offset` (clamped to the text).
    /// - Complexity: O(log lines + line length).
    public func position(ofByte offset: Int) -> (line: Int, column: Int) {
        let offset = max(0, min(offset, bytes.count))
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var start = lineStarts[lo]
        if start == 0, offset >= 3, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        var column = 1
        for b in bytes[start..<offset] where b & 0xC0 != 0x80 { column += 1 }
        return (lo + 1, column)
    }
}

extension JSONValue {
    /// Parses one JSON text as `parse(_:maxDepth:)` does, also recording where every value
    /// starts. A separate entry point so the REST decoder's parse records nothing.
    /// - Complexity: O(bytes.count).
    /// - Throws: `JSONSyntaxError` with the byte offset and the reason.
    public static func parseLocated(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError)
        -> JSONLocatedValue
    {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.valueStarts = []
        let value: JSONValue
        do {
            value = try parser.parseDocument()
        } catch {
            throw JSONSyntaxError(offset: parser.index, reason: Self.reason(of: error.message))
        }
        var next = 0
        return located(value, starts: parser.valueStarts ?? [], next: &next)
    }

    /// `what` of the parser's "Invalid JSON payload at byte N: what." message.
    static func reason(of message: String) -> String {
        var text = Substring(message)
        if let colon = text.firstIndex(of: ":") { text = text[text.index(after: colon)...].drop { $0 == " " } }
        if text.hasSuffix(".") { text = text.dropLast() }
        return String(text)
    }

    /// Pairs `value` with pre-order offsets from `starts[next...]`.
    static func located(_ value: JSONValue, starts: [Int], next: inout Int) -> JSONLocatedValue {
        let offset = next < starts.count ? starts[next] : 0
        next += 1
        switch value {
        case .array(let elements):
            return JSONLocatedValue(value: value, offset: offset, children: elements.map { located($0, starts: starts, next: &next) })
        case .object(let members):
            return JSONLocatedValue(
                value: value, offset: offset, children: members.map { located($0.value, starts: starts, next: &next) })
        default:
            return JSONLocatedValue(value: value, offset: offset)
        }
    }
}
