import AuthEmulator
import Foundation
import GoogleWire
import Synchronization
import Testing

/// A settable clock for the service.
final class TestClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_700_000_000))
    var read: @Sendable () -> Date { { [self] in now.withLock { $0 } } }
    func advance(seconds: Double) { now.withLock { $0 += seconds } }
}

/// `AuthService` without HTTP, on the in-memory store with an injected clock.
@Suite struct AuthServiceTests {
    let clock = TestClock()
    let service: AuthService

    init() {
        service = AuthService(store: InMemoryUserStore(), defaultProject: "demo-unit", clock: clock.read)
    }

    func call(_ op: AuthOperation, _ json: String, privileged: Bool = false) throws(AuthError) -> JSONValue {
        let body: AuthRequestBody
        do {
            body = try AuthRequestBody(json: try JSONValue.parse(json))
        } catch {
            throw .invalidArgument("test body: \(error)")
        }
        return try service.perform(AuthCall(operation: op, project: "demo-unit", privileged: privileged, body: body))
    }

    /// The Auth error message `body` fails with, nil when it succeeds.
    func message(_ body: () throws -> JSONValue) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? AuthError)?.message ?? "\(error)"
        }
    }

    @Test func idTokenClaimsAreTheEmulatorsInItsOrder() throws {
        let r = try call(.signUp, #"{"email":"o@x.io","password":"secret1","displayName":"Olga"}"#)
        let token = try #require(r["idToken"]?.string)
        let (header, payload) = try #require(EmulatorJWT.decode(token))
        #expect(header == .object([.init("alg", .string("none")), .init("typ", .string("JWT"))]))
        guard case .object(let members) = payload else {
            Issue.record("payload is not an object")
            return
        }
        #expect(
            members.map(\.key) == [
                "name", "email", "email_verified", "auth_time", "user_id", "firebase", "iat", "exp", "aud", "iss",
                "sub",
            ])
        #expect(payload["iat"]?.int == 1_700_000_000)
        #expect(payload["auth_time"]?.int == 1_700_000_000)
        #expect(payload["exp"]?.int == 1_700_003_600)
    }

    @Test func changingThePasswordRevokesEarlierTokens() throws {
        let r = try call(.signUp, #"{"email":"r@x.io","password":"secret1"}"#)
        let old = try #require(r["idToken"]?.string)
        clock.advance(seconds: 10)
        let update = try call(.update, #"{"idToken":"\#(old)","password":"newpass1"}"#)
        let fresh = try #require(update["idToken"]?.string)  // a credential change issues new tokens
        #expect(message { try call(.lookup, #"{"idToken":"\#(old)"}"#) } == "TOKEN_EXPIRED")
        #expect(try call(.lookup, #"{"idToken":"\#(fresh)"}"#)["users"]?.elements.count == 1)
        #expect(
            message { try call(.signInWithPassword, #"{"email":"r@x.io","password":"secret1"}"#) } == "INVALID_PASSWORD"
        )
        #expect(try call(.signInWithPassword, #"{"email":"r@x.io","password":"newpass1"}"#)["idToken"] != nil)
    }

    @Test func disabledAccountsCannotSignInOrRefresh() throws {
        let r = try call(.signUp, #"{"email":"d@x.io","password":"secret1"}"#)
        let uid = try #require(r["localId"]?.string)
        let refresh = try #require(r["refreshToken"]?.string)
        _ = try call(.update, #"{"localId":"\#(uid)","disableUser":true}"#, privileged: true)
        #expect(
            message { try call(.signInWithPassword, #"{"email":"d@x.io","password":"secret1"}"#) } == "USER_DISABLED")
        #expect(
            message { try call(.grantToken, #"{"grantType":"refresh_token","refreshToken":"\#(refresh)"}"#) }
                == "USER_DISABLED")
    }

    @Test func refreshTokenErrors() throws {
        #expect(message { try call(.grantToken, "{}") } == "MISSING_GRANT_TYPE")
        #expect(message { try call(.grantToken, #"{"grantType":"code"}"#) } == "INVALID_GRANT_TYPE")
        #expect(message { try call(.grantToken, #"{"grantType":"refresh_token"}"#) } == "MISSING_REFRESH_TOKEN")
        #expect(
            message { try call(.grantToken, #"{"grantType":"refresh_token","refreshToken":"abc"}"#) }
                == "INVALID_REFRESH_TOKEN")
        let other = RefreshToken(localId: "u", provider: "password", projectId: "another").encoded
        #expect(
            message { try call(.grantToken, #"{"grant_type":"refresh_token","refresh_token":"\#(other)"}"#) }
                == "INVALID_REFRESH_TOKEN")
    }

    @Test func customTokensCarryTheirClaimsThroughRefresh() throws {
        let token = #"{\"uid\":\"custom-1\",\"claims\":{\"role\":\"admin\"}}"#
        let r = try call(.signInWithCustomToken, #"{"token":"\#(token)","returnSecureToken":true}"#)
        #expect(r["isNewUser"] == .bool(true))
        let c = claims(of: r["idToken"]?.string)
        #expect(c["sub"]?.string == "custom-1")
        #expect(c["role"]?.string == "admin")
        #expect(c["firebase"]?["sign_in_provider"]?.string == "custom")
        let refreshed = try call(
            .grantToken, #"{"grantType":"refresh_token","refreshToken":"\#(r["refreshToken"]?.string ?? "")"}"#)
        #expect(claims(of: refreshed["id_token"]?.string)["role"]?.string == "admin")
        let forbidden = #"{\"uid\":\"c2\",\"claims\":{\"sub\":\"x\"}}"#
        #expect(message { try call(.signInWithCustomToken, #"{"token":"\#(forbidden)"}"#) } == "FORBIDDEN_CLAIM : sub")
        let wrongAudience = unsignedJWT(#"{"uid":"c3","aud":"demo-unit"}"#)
        #expect(
            message { try call(.signInWithCustomToken, #"{"token":"\#(wrongAudience)"}"#) }?.hasPrefix(
                "INVALID_CUSTOM_TOKEN") == true)
        let jwt = unsignedJWT(
            #"{"uid":"c4","aud":"https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"}"#
        )
        #expect(
            claims(of: try call(.signInWithCustomToken, #"{"token":"\#(jwt)"}"#)["idToken"]?.string)["sub"]?.string
                == "c4")
    }

    @Test func createAuthUriListsSignInMethods() throws {
        _ = try call(.signUp, #"{"email":"m@x.io","password":"secret1"}"#)
        let r = try call(.createAuthUri, #"{"identifier":"M@x.io","continueUri":"http://localhost"}"#)
        #expect(r["registered"] == .bool(true))
        #expect(r["signinMethods"] == .array([.string("password")]))
        let unknown = try call(.createAuthUri, #"{"identifier":"n@x.io","continueUri":"http://localhost"}"#)
        #expect(unknown["registered"] == .bool(false))
    }

    @Test func errorBodiesHaveTheAuthShape() {
        #expect(
            AuthError.badRequest("EMAIL_EXISTS").json.serializedString
                == #"{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"message":"EMAIL_EXISTS","reason":"invalid","domain":"global"}]}}"#
        )
        #expect(AuthError.notImplemented("x").json["error"]?["status"]?.string == "NOT_IMPLEMENTED")
        #expect(AuthError.notImplemented("x").code == 501)
    }

    @Test func passwordHashesAreSaltedAndVerify() {
        let a = PasswordHasher.hash("correct horse")
        let b = PasswordHasher.hash("correct horse")
        #expect(a.hash != b.hash)
        #expect(a.salt != b.salt)
        #expect(PasswordHasher.verify("correct horse", hash: a.hash, salt: a.salt))
        #expect(!PasswordHasher.verify("correct horsf", hash: a.hash, salt: a.salt))
        #expect(!PasswordHasher.verify("correct horse", hash: "not base64!", salt: a.salt))
        #expect(Base64.decode(a.hash)?.count == 32)
    }

    @Test func formDecoding() {
        let pairs = FormURLEncoding.decode("a=1&b=x+y&c=%7B%22s%22%3A1%7D&d&&e=%zz")
        #expect(pairs.map(\.name) == ["a", "b", "c", "d", "e"])
        #expect(pairs.map(\.value) == ["1", "x y", #"{"s":1}"#, "", "%zz"])
    }

    @Test func requestBodiesFoldSnakeCaseAndAcceptForms() throws {
        let form = try AuthRequestBody.parse(
            Array("grant_type=refresh_token&refresh_token=abc".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(form.string("grantType") == "refresh_token")
        #expect(form.string("refreshToken") == "abc")
        let json = try AuthRequestBody.parse(
            Array(#"{"id_token":"t","return_secure_token":"true"}"#.utf8), contentType: nil)
        #expect(json.string("idToken") == "t")
        #expect(json.bool("returnSecureToken") == true)
        #expect(try AuthRequestBody.parse([], contentType: "application/json").has("x") == false)
    }

    @Test func routes() {
        #expect(
            AuthRoute.parse(method: "POST", path: "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp")
                == .call(.signInWithIdp, project: nil, security: .apiKey))
        #expect(
            AuthRoute.parse(method: "POST", path: "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion")
                == .call(.signInWithIdp, project: nil, security: .apiKey))
        #expect(
            AuthRoute.parse(method: "POST", path: "/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser")
                == .call(.signUp, project: nil, security: .apiKey))
        #expect(
            AuthRoute.parse(method: "POST", path: "/identitytoolkit.googleapis.com/v1/projects/p1/accounts:lookup")
                == .call(.lookup, project: "p1", security: .oauthOrApiKey))
        #expect(
            AuthRoute.parse(method: "POST", path: "/identitytoolkit.googleapis.com/v1/projects/p1/accounts")
                == .call(.signUp, project: "p1", security: .oauthOrApiKey))
        #expect(
            AuthRoute.parse(method: "POST", path: "/securetoken.googleapis.com/v1/token")
                == .call(.grantToken, project: nil, security: .apiKey))
        #expect(
            AuthRoute.parse(method: "DELETE", path: "/emulator/v1/projects/p1/accounts")
                == .call(.clearAccounts, project: "p1", security: .none))
        #expect(
            AuthRoute.parse(method: "PATCH", path: "/emulator/v1/projects/p1/config")
                == .call(.updateConfig, project: "p1", security: .none))
        #expect(AuthRoute.parse(method: "GET", path: "/emulator/v1/projects/p1/accounts") == .notFound)
        #expect(AuthRoute.parse(method: "GET", path: "/") == .root)
        if case .unsupported = AuthRoute.parse(
            method: "POST", path: "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode")
        {
        } else {
            Issue.record("sendOobCode should be a known, unsupported operation")
        }
        #expect(AuthRoute.parse(method: "POST", path: "/identitytoolkit.googleapis.com/v1/accounts:bogus") == .notFound)
    }
}
