/// The text of one rules file plus the line table diagnostics need.
///
/// Offsets are UTF-8 byte offsets into `bytes`; lines and columns are 1-based, columns counted
/// in Unicode scalars so a caret under the source line points at the right character.
/// `position(ofOffset:)` costs O(log lines): a binary search for the line, then a byte
/// difference on ASCII lines, or two checkpoint look-ups plus at most 63 bytes scanned on
/// other lines (never a scan from the start of a long line).
public struct RulesSource: Sendable {
    /// The name shown in diagnostics (`firestore.rules`).
    public let fileName: String
    /// The full text.
    public let text: String
    /// The UTF-8 bytes of `text`; the lexer reads these.
    let bytes: [UInt8]
    /// Byte offset where each line starts (line 1 at index 0).
    let lineStarts: [Int]
    /// True for lines holding only ASCII, whose columns are plain byte differences.
    let lineIsASCII: [Bool]
    /// Unicode scalars in `bytes[0 ..< k * checkpointStride]` at index `k`.
    let scalarCheckpoints: [Int]
    /// Bytes between two scalar checkpoints.
    static let checkpointStride = 64

    /// Creates a source and indexes its lines.
    public init(text: String, fileName: String) {
        self.fileName = fileName
        self.text = text
        let bytes = Array(text.utf8)
        self.bytes = bytes
        var starts = [0]
        var ascii = [true]
        var checkpoints: [Int] = []
        checkpoints.reserveCapacity(bytes.count / Self.checkpointStride + 1)
        var scalars = 0
        for (i, b) in bytes.enumerated() {
            if i % Self.checkpointStride == 0 { checkpoints.append(scalars) }
            if b & 0xC0 != 0x80 { scalars += 1 }
            if b == 0x0A {
                starts.append(i + 1)
                ascii.append(true)
            } else if b >= 0x80 {
                ascii[ascii.count - 1] = false
            }
        }
        if bytes.count % Self.checkpointStride == 0 { checkpoints.append(scalars) }
        self.lineStarts = starts
        self.lineIsASCII = ascii
        self.scalarCheckpoints = checkpoints
    }

    /// Unicode scalars that start in `bytes[0 ..< offset]` (`offset` within the text).
    func scalarsBefore(_ offset: Int) -> Int {
        let block = offset / Self.checkpointStride
        var n = scalarCheckpoints[block]
        for i in block * Self.checkpointStride..<offset where bytes[i] & 0xC0 != 0x80 { n += 1 }
        return n
    }

    /// The line/column of a byte offset (clamped to the text).
    public func position(ofOffset offset: Int) -> SourcePosition {
        let o = max(0, min(offset, bytes.count))
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= o { lo = mid } else { hi = mid - 1 }
        }
        if lineIsASCII[lo] { return SourcePosition(line: lo + 1, column: o - lineStarts[lo] + 1, offset: o) }
        let column = scalarsBefore(o) - scalarsBefore(lineStarts[lo]) + 1
        return SourcePosition(line: lo + 1, column: column, offset: o)
    }

    /// The text of 1-based line `line` without its newline ("" when out of range).
    public func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    /// Widest source excerpt a diagnostic quotes, in bytes (plus `…` at a cut end).
    public static let excerptWidth = 160

    /// The text of 1-based `line` around byte `offset` (which should be on that line): the
    /// whole line when it fits `excerptWidth` bytes, otherwise a window of that many bytes
    /// centred on `offset`, cut at scalar boundaries and marked `…` where cut. `caret` is the
    /// 1-based scalar column of `offset` within the returned text. Costs O(`excerptWidth`).
    public func excerpt(line: Int, at offset: Int) -> (text: String, caret: Int) {
        guard line >= 1, line <= lineStarts.count else { return ("", 1) }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        end = max(start, end)
        let at = max(start, min(offset, end))
        var lo = start
        var hi = end
        if end - start > Self.excerptWidth {
            lo = max(start, at - Self.excerptWidth / 2)
            hi = min(end, lo + Self.excerptWidth)
            lo = max(start, hi - Self.excerptWidth)
            while lo > start, lo < bytes.count, bytes[lo] & 0xC0 == 0x80 { lo -= 1 }
            while hi < end, bytes[hi] & 0xC0 == 0x80 { hi -= 1 }
        }
        let head = lo > start ? "…" : ""
        let tail = hi < end ? "…" : ""
        var caret = head.isEmpty ? 1 : 2
        for i in lo..<max(lo, at) where bytes[i] & 0xC0 != 0x80 { caret += 1 }
        return (head + String(decoding: bytes[lo..<hi], as: UTF8.self) + tail, caret)
    }

    /// The source text between two byte offsets.
    func slice(_ start: Int, _ end: Int) -> String {
        let s = max(0, min(start, bytes.count))
        let e = max(s, min(end, bytes.count))
        return String(decoding: bytes[s..<e], as: UTF8.self)
    }
}

/// A place in a rules file: 1-based line and column (Unicode scalars) plus the byte offset.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column in Unicode scalars.
    public var column: Int
    /// UTF-8 byte offset from the start of the file.
    public var offset: Int

    /// Creates a position.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }
}
