/// Client-style automatic document ids: 20 characters of `[A-Za-z0-9]`, as the SDKs make them.
/// Source: firebase-js-sdk `packages/firestore/src/util/misc.ts` `AutoId`.
enum AutoID {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A fresh random id.
    static func make() -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(rng.next(upperBound: UInt64(alphabet.count)))] })
    }
}
