import COpenSSL

/// SecurityRules' one door to OpenSSL's libcrypto (docs/ARCHITECTURE.md rule 3): MD5 and SHA-256 digests for
/// `hashing.md5` / `hashing.sha256`. CRC-32 and CRC-32C are computed here in Swift.
/// Source: docs/reference/security-rules.md §4.13 (hex of md5/sha256 uppercase; CRC bytes little-endian).
enum Hashing {
    /// MD5 of `data` (16 bytes).
    static func md5(_ data: [UInt8]) -> [UInt8] { digest(data, EVP_md5(), length: 16) }

    /// SHA-256 of `data` (32 bytes).
    static func sha256(_ data: [UInt8]) -> [UInt8] { digest(data, EVP_sha256(), length: 32) }

    private static func digest(_ data: [UInt8], _ md: OpaquePointer?, length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var outLength: UInt32 = 0
        let ok = data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { buffer in
                EVP_Digest(input.baseAddress, input.count, buffer.baseAddress, &outLength, md, nil)
            }
        }
        precondition(ok == 1 && Int(outLength) == length, "libcrypto digest failed")
        return Array(out.prefix(length))
    }

    private static func table(_ polynomial: UInt32) -> [UInt32] {
        (0..<256).map { n -> UInt32 in
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? polynomial ^ (c >> 1) : c >> 1 }
            return c
        }
    }

    private static let crc32Table = table(0xEDB8_8320)
    private static let crc32cTable = table(0x82F6_3B78)

    private static func crc(_ data: [UInt8], _ t: [UInt32]) -> [UInt8] {
        var c: UInt32 = 0xFFFF_FFFF
        for b in data { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        c ^= 0xFFFF_FFFF
        return [UInt8(c & 0xFF), UInt8((c >> 8) & 0xFF), UInt8((c >> 16) & 0xFF), UInt8(c >> 24)]
    }

    /// CRC-32 (IEEE), 4 bytes little-endian.
    static func crc32(_ data: [UInt8]) -> [UInt8] { crc(data, crc32Table) }

    /// CRC-32C (Castagnoli), 4 bytes little-endian.
    static func crc32c(_ data: [UInt8]) -> [UInt8] { crc(data, crc32cTable) }
}
