import AuthEmulator
import FirestoreModel
import Foundation
import GoogleWire
import Testing

/// The Google sign-in flow as the Flutter plugins' native and web SDKs send it, end to end over
/// real sockets: signInWithIdp → ID token → Firestore REST with that token → refresh.
@Suite struct GoogleSignInFlowTests {
    static let googleClaims =
        #"{"iss":"https://accounts.google.com","aud":"client.apps.googleusercontent.com","sub":"google-123","email":"Ada@Example.com","email_verified":true,"name":"Ada Lovelace","picture":"https://photos.example/ada.png","given_name":"Ada","family_name":"Lovelace","iat":1,"exp":2}"#

    static func formEscape(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s
    }

    @Test func webSDKFlowIssuesTokensFirestoreAcceptsAndRefreshWorks() async throws {
        try await withEmulators { e in
            let idToken = unsignedJWT(Self.googleClaims)
            let postBody = "id_token=\(Self.formEscape(idToken))&providerId=google.com"
            let signIn = try await e.account(
                "signInWithIdp",
                #"{"requestUri":"http://localhost","returnSecureToken":true,"postBody":"\#(postBody)"}"#)
            #expect(signIn.status == 200, "\(signIn.text)")
            let r = signIn.json
            #expect(r["kind"]?.string == "identitytoolkit#VerifyAssertionResponse")
            #expect(r["providerId"]?.string == "google.com")
            #expect(r["federatedId"]?.string == "https://accounts.google.com/google-123")
            #expect(r["email"]?.string == "ada@example.com")
            #expect(r["emailVerified"] == .bool(true))
            #expect(r["displayName"]?.string == "Ada Lovelace")
            #expect(r["firstName"]?.string == "Ada")
            #expect(r["isNewUser"] == .bool(true))
            #expect(r["expiresIn"]?.string == "3600")
            #expect(r["oauthIdToken"]?.string == idToken)
            #expect(r["oauthAccessToken"]?.string == "FirebaseAuthEmulatorFakeAccessToken_google.com")
            let uid = try #require(r["localId"]?.string)
            #expect(uid.count == 28)

            // The ID token: unsigned, with the claims of docs/reference/firestore-wire.md §4.4.
            let token = try #require(r["idToken"]?.string)
            #expect(token.hasSuffix("."))
            let c = claims(of: token)
            #expect(c["iss"]?.string == "https://securetoken.google.com/demo-auth")
            #expect(c["aud"]?.string == "demo-auth")
            #expect(c["sub"]?.string == uid)
            #expect(c["user_id"]?.string == uid)
            #expect(c["name"]?.string == "Ada Lovelace")
            #expect(c["picture"]?.string == "https://photos.example/ada.png")
            #expect(c["email"]?.string == "ada@example.com")
            #expect(c["email_verified"] == .bool(true))
            #expect(c["firebase"]?["sign_in_provider"]?.string == "google.com")
            #expect(c["firebase"]?["identities"]?["google.com"] == .array([.string("google-123")]))
            #expect(c["firebase"]?["identities"]?["email"] == .array([.string("ada@example.com")]))
            let iat = try #require(c["iat"]?.int)
            #expect(c["exp"]?.int == iat + 3600)
            #expect(c["auth_time"]?.int != nil)
            #expect(c["provider_id"] == nil)

            // Firestore decodes it: request.auth.uid is the user's uid, and REST accepts it.
            let auth = try BearerToken.authContext(fromHeader: "Bearer \(token)")
            guard case .user(let decodedUID, let tokenClaims) = auth else {
                Issue.record("expected a user context, got \(auth)")
                return
            }
            #expect(decodedUID == uid)
            #expect(
                tokenClaims["firebase"]
                    == .map([
                        "identities": .map([
                            "google.com": .array([.string("google-123")]),
                            "email": .array([.string("ada@example.com")]),
                        ]), "sign_in_provider": .string("google.com"),
                    ]))
            let write = try await Emulators.send(
                "POST", e.firestoreURL("\(e.documents)/profiles?documentId=\(uid)"),
                body: #"{"fields":{"name":{"stringValue":"Ada"}}}"#, headers: ["Authorization": "Bearer \(token)"])
            #expect(write.status == 200, "\(write.text)")
            let read = try await Emulators.send(
                "GET", e.firestoreURL("\(e.documents)/profiles/\(uid)"), headers: ["Authorization": "Bearer \(token)"])
            #expect(read.status == 200)
            #expect(read.json["fields"]?["name"]?["stringValue"]?.string == "Ada")

            // Right after sign-in the SDK looks the account up.
            let lookup = try await e.account("lookup", #"{"idToken":"\#(token)"}"#)
            #expect(lookup.status == 200)
            let user = try #require(lookup.json["users"]?.elements.first)
            #expect(user["localId"]?.string == uid)
            #expect(user["email"]?.string == "ada@example.com")
            #expect(user["emailVerified"] == .bool(true))
            let google = try #require(
                user["providerUserInfo"]?.elements.first { $0["providerId"]?.string == "google.com" })
            #expect(google["rawId"]?.string == "google-123")
            #expect(user["createdAt"]?.string.flatMap { Int64($0) } != nil)

            // Token refresh, form-encoded as the JS SDK sends it.
            let refreshToken = try #require(r["refreshToken"]?.string)
            let form = try await Emulators.send(
                "POST", e.authURL("/securetoken.googleapis.com/v1/token?key=fake-key"),
                body: "grant_type=refresh_token&refresh_token=\(Self.formEscape(refreshToken))",
                contentType: "application/x-www-form-urlencoded")
            #expect(form.status == 200, "\(form.text)")
            #expect(form.json["token_type"]?.string == "Bearer")
            #expect(form.json["user_id"]?.string == uid)
            #expect(form.json["project_id"]?.string == "12345")
            #expect(form.json["expires_in"]?.string == "3600")
            #expect(form.json["access_token"] == form.json["id_token"])
            #expect(form.json["refresh_token"]?.string != nil)
            let refreshed = try #require(form.json["id_token"]?.string)
            #expect(claims(of: refreshed)["sub"]?.string == uid)
            #expect(claims(of: refreshed)["firebase"]?["sign_in_provider"]?.string == "google.com")

            // … and as JSON, as the iOS SDK sends it.
            let json = try await Emulators.send(
                "POST", e.authURL("/securetoken.googleapis.com/v1/token?key=fake-key"),
                body: #"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)"}"#)
            #expect(json.status == 200, "\(json.text)")
            #expect(claims(of: json.json["id_token"]?.string)["user_id"]?.string == uid)

            // The refreshed token works against Firestore too.
            let again = try await Emulators.send(
                "GET", e.firestoreURL("\(e.documents)/profiles/\(uid)"),
                headers: ["Authorization": "Bearer \(refreshed)"])
            #expect(again.status == 200)

            // Signing in again with the same Google account finds the same user.
            let second = try await e.account(
                "signInWithIdp",
                #"{"requestUri":"http://localhost","returnSecureToken":true,"postBody":"\#(postBody)"}"#)
            #expect(second.json["localId"]?.string == uid)
            #expect(second.json["isNewUser"] == nil)
        }
    }

    @Test func iOSLegacyVerifyAssertionWithRawJSONClaims() async throws {
        try await withEmulators { e in
            let claimsJSON = #"{"sub":"ios-1","email":"b@c.dev","email_verified":true}"#
            let postBody = "providerId=google.com&id_token=\(Self.formEscape(claimsJSON))"
            let body =
                #"{"requestUri":"http://localhost","postBody":"\#(postBody)","returnSecureToken":true,"returnIdpCredential":true,"autoCreate":true}"#
            let r = try await Emulators.send(
                "POST", e.authURL("/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion?key=k"),
                body: body)
            #expect(r.status == 200, "\(r.text)")
            #expect(r.json["isNewUser"] == .bool(true))
            let token = try #require(r.json["idToken"]?.string)
            let info = try await Emulators.send(
                "POST", e.authURL("/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo?key=k"),
                body: #"{"idToken":"\#(token)"}"#)
            #expect(info.status == 200)
            #expect(info.json["users"]?.elements.first?["email"]?.string == "b@c.dev")
        }
    }

    @Test func idpErrors() async throws {
        try await withEmulators { e in
            func signIn(_ postBody: String, requestUri: String? = "http://localhost", extra: String = "") async throws
                -> Emulators.Reply
            {
                var fields = [#""postBody":"\#(postBody)""#, #""returnSecureToken":true"#]
                if let requestUri { fields.append(#""requestUri":"\#(requestUri)""#) }
                return try await e.account("signInWithIdp", "{" + fields.joined(separator: ",") + extra + "}")
            }
            let noSub = try await signIn("providerId=google.com&id_token=\(Self.formEscape(#"{"email":"x@y.z"}"#))")
            #expect(noSub.status == 400)
            #expect(noSub.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : ") == true)
            // The Auth error shape of docs/reference/firestore-wire.md §4.5: BadRequest has no status.
            #expect(noSub.json["error"]?["code"]?.int == 400)
            #expect(noSub.json["error"]?["errors"]?.elements.first?["reason"]?.string == "invalid")
            #expect(noSub.json["error"]?["errors"]?.elements.first?["domain"]?.string == "global")
            #expect(noSub.json["error"]?["status"] == nil)

            let numericSub = try await signIn("providerId=google.com&id_token=\(Self.formEscape(#"{"sub":42}"#))")
            #expect(numericSub.errorMessage == #"INVALID_IDP_RESPONSE : ((The "sub" field must be a string.))"#)
            let noProvider = try await signIn("id_token=\(Self.formEscape(#"{"sub":"a"}"#))")
            #expect(noProvider.errorMessage?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID") == true)
            let accessOnly = try await signIn("providerId=google.com&access_token=ya29.abc")
            #expect(accessOnly.status == 501)
            #expect(accessOnly.json["error"]?["status"]?.string == "NOT_IMPLEMENTED")
            let noUri = try await signIn("providerId=google.com&id_token=x", requestUri: nil)
            #expect(noUri.errorMessage == "MISSING_REQUEST_URI")
            let badJSON = try await signIn("providerId=google.com&id_token=\(Self.formEscape("{nope"))")
            #expect(badJSON.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : Unable to parse id_token") == true)
        }
    }

    @Test func sameEmailUnverifiedNeedsConfirmationVerifiedTakesOver() async throws {
        try await withEmulators { e in
            let signUp = try await e.account(
                "signUp", #"{"email":"ada@example.com","password":"secret1","returnSecureToken":true}"#)
            let uid = try #require(signUp.json["localId"]?.string)
            func google(_ verified: Bool) -> String {
                let c = #"{"sub":"g-9","email":"ada@example.com","email_verified":\#(verified)}"#
                return
                    #"{"requestUri":"http://localhost","returnSecureToken":true,"postBody":"providerId=google.com&id_token=\#(Self.formEscape(c))"}"#
            }
            let unverified = try await e.account("signInWithIdp", google(false))
            #expect(unverified.status == 200)
            #expect(unverified.json["needConfirmation"] == .bool(true))
            #expect(unverified.json["idToken"] == nil)
            #expect(unverified.json["localId"]?.string == uid)

            let verified = try await e.account("signInWithIdp", google(true))
            #expect(verified.status == 200)
            #expect(verified.json["localId"]?.string == uid)
            #expect(verified.json["emailVerified"] == .bool(true))
            let c = claims(of: verified.json["idToken"]?.string)
            #expect(c["firebase"]?["identities"]?["google.com"] == .array([.string("g-9")]))
        }
    }

    @Test func linkingAnAlreadyLinkedIdentityIsAnErrorMessageForIOS() async throws {
        try await withEmulators { e in
            let c = Self.formEscape(#"{"sub":"g-1"}"#)
            let first = try await e.account(
                "signInWithIdp", #"{"requestUri":"http://localhost","postBody":"providerId=google.com&id_token=\#(c)"}"#
            )
            #expect(first.status == 200)
            let anon = try await e.account("signUp", #"{"returnSecureToken":true}"#)
            let anonToken = try #require(anon.json["idToken"]?.string)
            let link =
                #"{"requestUri":"http://localhost","idToken":"\#(anonToken)","postBody":"providerId=google.com&id_token=\#(c)""#
            let web = try await e.account("signInWithIdp", link + "}")
            #expect(web.status == 400)
            #expect(web.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
            let ios = try await e.account("signInWithIdp", link + #","returnIdpCredential":true}"#)
            #expect(ios.status == 200)
            #expect(ios.json["errorMessage"]?.string == "FEDERATED_USER_ID_ALREADY_LINKED")
        }
    }
}
