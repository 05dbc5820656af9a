import COpenSSL
import GoogleWire

/// Salted password hashing for the Auth emulator: PBKDF2-HMAC-SHA256 (RFC 8018 §5.2) through
/// libcrypto's `PKCS5_PBKDF2_HMAC`, 16 random salt bytes, a 32-byte key.
///
/// The Firebase emulator stores a reversible `fakeHash:salt=…:password=…`; Hearth persists
/// accounts on disk, so it never keeps a password in any recoverable form. Verification
/// recomputes the hash and compares in constant time. This file is the AuthEmulator target's
/// one door to OpenSSL (docs/ARCHITECTURE.md rule 3).
public enum PasswordHasher {
    /// PBKDF2 iterations: enough to make a leaked file costly to attack, cheap enough that a
    /// sign-in stays around a millisecond (this is an emulator, not a production IdP).
    public static let iterations: Int32 = 10_000
    /// Salt length in bytes.
    public static let saltBytes = 16
    /// Derived key length in bytes.
    public static let keyBytes = 32

    /// A fresh random salt and the hash of `password` with it, both standard base64.
    public static func hash(_ password: String) -> (hash: String, salt: String) {
        var rng = SystemRandomNumberGenerator()
        let salt = (0..<saltBytes).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return (Base64.encode(derive(password, salt: salt)), Base64.encode(salt))
    }

    /// True when `password` hashes to `hash` with `salt` (base64 both). False for undecodable input.
    public static func verify(_ password: String, hash: String, salt: String) -> Bool {
        guard let expected = Base64.decode(hash), let saltBytes = Base64.decode(salt), expected.count == keyBytes else {
            return false
        }
        let actual = derive(password, salt: saltBytes)
        var difference: UInt8 = 0
        for (a, b) in zip(actual, expected) { difference |= a ^ b }
        return difference == 0
    }

    /// The password of the Firebase Auth emulator's stored form `fakeHash:salt=S:password=P`
    /// (firebase-tools `src/emulator/auth/operations.ts`, `hashPassword`), as its exports
    /// (`auth_export/accounts.json`) carry it; nil for any other hash. Importing re-hashes it
    /// with `hash(_:)`, so the account signs in with the same password and no password is kept.
    public static func emulatorFakeHashPassword(_ passwordHash: String) -> String? {
        let prefix = "fakeHash:salt=", marker = ":password="
        guard passwordHash.hasPrefix(prefix) else { return nil }
        // The salt holds no ':' (the emulator draws it from letters and digits): the first marker ends it.
        let afterPrefix = passwordHash.dropFirst(prefix.count)
        guard let colon = afterPrefix.firstIndex(of: ":"), afterPrefix[colon...].hasPrefix(marker) else { return nil }
        return String(afterPrefix[colon...].dropFirst(marker.count))
    }

    /// PBKDF2-HMAC-SHA256(password, salt, `iterations`, `keyBytes`).
    static func derive(_ password: String, salt: [UInt8]) -> [UInt8] {
        let pass = Array(password.utf8)
        var out = [UInt8](repeating: 0, count: keyBytes)
        let ok = pass.withUnsafeBytes { p in
            salt.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    PKCS5_PBKDF2_HMAC(
                        p.bindMemory(to: CChar.self).baseAddress, Int32(pass.count), s.baseAddress, Int32(salt.count),
                        iterations, EVP_sha256(), Int32(keyBytes), o.baseAddress)
                }
            }
        }
        precondition(ok == 1, "libcrypto PBKDF2 failed")
        return out
    }
}
