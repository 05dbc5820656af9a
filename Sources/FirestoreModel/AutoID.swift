/// Random document ids as the SDKs generate them: 20 characters from `[A-Za-z0-9]`
/// (≈119 bits of entropy): CreateDocument without an id, the Admin client's `document()`, stream ids.
/// Source: docs/reference/firestore-wire.md §1.3 (CreateDocument ids).
public enum AutoID {
    /// The 62 id characters.
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A new id from the system random generator.
    public static func make() -> String {
        var rng = SystemRandomNumberGenerator()
        return make(using: &rng)
    }

    /// A new id from `generator` (deterministic in tests).
    public static func make<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        for _ in 0..<20 { bytes.append(alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
