/// The LevelDB log format that Cloud Firestore managed exports (and the emulator's
/// `:export`) frame their files in: 32 KiB blocks of records, each record a 7-byte header —
/// masked CRC-32C of the type byte and the payload (4 bytes little-endian), payload length
/// (2 bytes little-endian), type (1 = FULL, 2 = FIRST, 3 = MIDDLE, 4 = LAST) — then the
/// payload. A payload that does not fit in what is left of a block is split into FIRST,
/// MIDDLE… LAST fragments; fewer than 7 bytes left at a block's end are zero padding.
///
/// Source: LevelDB `doc/log_format.md`; CRC-32C is RFC 3720 §B.4 (Castagnoli, reflected
/// polynomial 0x82F63B78), masked as LevelDB's `crc32c::Mask` does (rotate right 15, add
/// 0xA282EAD8). docs/reference/firestore-wire.md §2.5.
public enum LevelDBLog {
    /// Block size in bytes.
    public static let blockSize = 32_768
    /// Header size in bytes.
    public static let headerSize = 7

    /// Why a log file could not be read: the byte offset and what was wrong.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Byte offset of the record header at fault.
        public var offset: Int
        /// What was wrong.
        public var reason: String
        /// `record at byte N: reason`.
        public var description: String { "record at byte \(offset): \(reason)" }
    }

    /// The payloads of every record in `bytes`, fragments joined, in order.
    /// - Throws: `Failure` for a checksum mismatch, a length past the block or the file, an
    ///   unknown type, or fragments out of order (a MIDDLE without FIRST, a file ending inside
    ///   a record). A trailing block of zeros (a preallocated tail) ends the file cleanly.
    public static func records(in bytes: [UInt8]) throws(Failure) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var pending: [UInt8]?
        var pendingAt = 0
        var i = 0
        while i < bytes.count {
            let left = blockSize - i % blockSize
            if left < headerSize {
                i += left
                continue
            }
            guard bytes.count - i >= headerSize else {
                if bytes[i...].allSatisfy({ $0 == 0 }) { break }
                throw Failure(offset: i, reason: "the file ends inside a record header")
            }
            let masked = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            let length = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8
            let type = bytes[i + 6]
            if type == 0, length == 0, masked == 0 {
                // Zero padding (a writer that preallocated the block): skip to the next block.
                i += left
                continue
            }
            guard length <= left - headerSize, i + headerSize + length <= bytes.count else {
                throw Failure(offset: i, reason: "length \(length) runs past the end of its block or of the file")
            }
            let payload = bytes[(i + headerSize)..<(i + headerSize + length)]
            var crc = CRC32C.update(CRC32C.start, [type])
            crc = CRC32C.update(crc, payload)
            guard CRC32C.mask(CRC32C.finish(crc)) == masked else {
                throw Failure(offset: i, reason: "checksum mismatch (a corrupt or truncated file)")
            }
            switch type {
            case 1:
                guard pending == nil else { throw Failure(offset: pendingAt, reason: "a record's fragments end without LAST") }
                out.append(Array(payload))
            case 2:
                guard pending == nil else { throw Failure(offset: pendingAt, reason: "a record's fragments end without LAST") }
                pending = Array(payload)
                pendingAt = i
            case 3, 4:
                guard pending != nil else { throw Failure(offset: i, reason: "a \(type == 3 ? "MIDDLE" : "LAST") fragment without FIRST") }
                pending?.append(contentsOf: payload)
                if type == 4, let whole = pending {
                    out.append(whole)
                    pending = nil
                }
            default:
                throw Failure(offset: i, reason: "unknown record type \(type)")
            }
            i += headerSize + length
        }
        if pending != nil { throw Failure(offset: pendingAt, reason: "the file ends inside a fragmented record") }
        return out
    }

    /// Builds a log file record by record.
    public struct Writer: Sendable {
        /// The file's bytes so far.
        public private(set) var bytes: [UInt8] = []

        /// An empty file.
        public init() {}

        /// Appends `payload` as one record (FULL, or FIRST…LAST across blocks).
        public mutating func append(_ payload: some Collection<UInt8>) {
            var rest = payload[...]
            var first = true
            while true {
                let left = LevelDBLog.blockSize - bytes.count % LevelDBLog.blockSize
                if left < LevelDBLog.headerSize {
                    bytes.append(contentsOf: repeatElement(0, count: left))
                    continue
                }
                let room = left - LevelDBLog.headerSize
                let fragment = rest.prefix(room)
                rest = rest.dropFirst(fragment.count)
                let type: UInt8 = first ? (rest.isEmpty ? 1 : 2) : (rest.isEmpty ? 4 : 3)
                var crc = CRC32C.update(CRC32C.start, [type])
                crc = CRC32C.update(crc, fragment)
                let masked = CRC32C.mask(CRC32C.finish(crc))
                bytes.append(contentsOf: [
                    UInt8(masked & 0xFF), UInt8(masked >> 8 & 0xFF), UInt8(masked >> 16 & 0xFF), UInt8(masked >> 24),
                    UInt8(fragment.count & 0xFF), UInt8(fragment.count >> 8), type,
                ])
                bytes.append(contentsOf: fragment)
                first = false
                if rest.isEmpty { return }
            }
        }
    }
}

/// CRC-32C (Castagnoli), the checksum of LevelDB log records. No Debian library Hearth
/// links offers it (zlib's is CRC-32, another polynomial), so it is computed here with
/// one 256-entry table. Source: RFC 3720 §B.4; LevelDB `util/crc32c.h` for the mask.
enum CRC32C {
    /// The running value before any byte.
    static let start: UInt32 = 0xFFFF_FFFF

    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0x82F6_3B78 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The running value after `bytes`.
    static func update(_ crc: UInt32, _ bytes: some Sequence<UInt8>) -> UInt32 {
        var c = crc
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c
    }

    /// The checksum of a finished running value.
    static func finish(_ crc: UInt32) -> UInt32 { crc ^ 0xFFFF_FFFF }

    /// LevelDB's stored form: rotated right by 15 bits plus a constant, so a CRC of data
    /// that itself holds CRCs does not degenerate.
    static func mask(_ crc: UInt32) -> UInt32 { ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8 }
}
