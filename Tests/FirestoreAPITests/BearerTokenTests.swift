import FirestoreModel
import Foundation
import GoogleWire
import Testing

@Suite("BearerToken: Authorization headers and JWT claims (docs/reference/firestore-wire.md §2.2, §2.7)")
struct BearerTokenTests {
    func jwt(_ payload: String, header: String = #"{"alg":"none"}"#) -> String {
        BearerToken.base64URLEncode(Data(header.utf8)) + "." + BearerToken.base64URLEncode(Data(payload.utf8)) + "."
    }

    @Test("claims keep their JSON types: integers, doubles, booleans, nested maps and arrays")
    func claimTypes() throws {
        let claims = try BearerToken.claims(
            ofJWT: jwt(#"{"sub":"u1","n":3,"big":9223372036854775808,"x":1.5,"e":1e2,"ok":true,"z":null,"m":{"a":[1,"b"]}}"#))
        #expect(claims["sub"] == .string("u1"))
        #expect(claims["n"] == .integer(3))
        #expect(claims["big"] == .double(9_223_372_036_854_775_808))
        #expect(claims["x"] == .double(1.5))
        #expect(claims["e"] == .double(100))
        #expect(claims["ok"] == .boolean(true))
        #expect(claims["z"] == .null)
        #expect(claims["m"] == .map(["a": .array([.integer(1), .string("b")])]))
    }

    @Test("a header with spaces around the token, and the uid from sub or user_id")
    func headers() throws {
        #expect(try BearerToken.authContext(fromHeader: "  Bearer owner ") == .admin)
        guard case .user(let uid, _) = try BearerToken.authContext(fromHeader: "Bearer " + jwt(#"{"user_id":"u2"}"#)) else {
            Issue.record("not a user")
            return
        }
        #expect(uid == "u2")
    }

    @Test(
        "tokens that are not JWTs with JSON object parts are INVALID_ARGUMENT",
        arguments: ["Bearer abc", "Basic x", "Bearer a.b.c"])
    func rejects(_ header: String) {
        #expect(throws: FirestoreError.self) { try BearerToken.authContext(fromHeader: header) }
        #expect(throws: FirestoreError.self) {
            try BearerToken.claims(ofJWT: BearerToken.base64URLEncode(Data("[1]".utf8)) + "." + BearerToken.base64URLEncode(Data("{}".utf8)) + ".")
        }
    }

    @Test("base64url round-trips bytes that base64 writes as + / and =")
    func base64URL() {
        let bytes = Data([0xFB, 0xFF, 0xBF, 0x00])
        let text = BearerToken.base64URLEncode(bytes)
        #expect(text == "-_-_AA")
        #expect(BearerToken.base64URLDecode(text) == bytes)
        #expect(BearerToken.base64URLDecode("*") == nil)
    }
}
