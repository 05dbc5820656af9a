import Foundation
import Testing

/// Email/password and anonymous accounts, profile updates, deletion, the Admin (Bearer owner)
/// forms and the emulator-only endpoints, over real sockets.
@Suite struct EmailAccountTests {
    @Test func signUpSignInLookupUpdateDelete() async throws {
        try await withEmulators { e in
            let signUp = try await e.account(
                "signUp", #"{"email":"Grace@Example.com","password":"secret1","returnSecureToken":true}"#)
            #expect(signUp.status == 200, "\(signUp.text)")
            #expect(signUp.json["kind"]?.string == "identitytoolkit#SignupNewUserResponse")
            #expect(signUp.json["email"]?.string == "grace@example.com")
            let uid = try #require(signUp.json["localId"]?.string)
            let c = claims(of: signUp.json["idToken"]?.string)
            #expect(c["firebase"]?["sign_in_provider"]?.string == "password")
            #expect(c["firebase"]?["identities"] == .object([.init("email", .array([.string("grace@example.com")]))]))
            #expect(c["email_verified"] == .bool(false))

            let signIn = try await e.account(
                "signInWithPassword", #"{"email":"grace@example.com","password":"secret1","returnSecureToken":true}"#)
            #expect(signIn.status == 200)
            #expect(signIn.json["kind"]?.string == "identitytoolkit#VerifyPasswordResponse")
            #expect(signIn.json["registered"] == .bool(true))
            #expect(signIn.json["localId"]?.string == uid)
            let token = try #require(signIn.json["idToken"]?.string)

            let lookup = try await e.account("lookup", #"{"idToken":"\#(token)"}"#)
            let user = try #require(lookup.json["users"]?.elements.first)
            #expect(user["localId"]?.string == uid)
            #expect(user["providerUserInfo"]?.elements.first?["providerId"]?.string == "password")
            #expect(user["providerUserInfo"]?.elements.first?["rawId"]?.string == "grace@example.com")
            // Never the password itself: a salted hash.
            let hash = try #require(user["passwordHash"]?.string)
            #expect(user["salt"]?.string != nil)
            #expect(!hash.contains("secret1"))
            #expect(!lookup.text.contains("secret1"))

            let update = try await e.account(
                "update",
                #"{"idToken":"\#(token)","displayName":"Grace Hopper","photoUrl":"https://photos.example/g.png","returnSecureToken":true}"#
            )
            #expect(update.status == 200, "\(update.text)")
            #expect(update.json["kind"]?.string == "identitytoolkit#SetAccountInfoResponse")
            #expect(update.json["displayName"]?.string == "Grace Hopper")
            #expect(update.json["photoUrl"]?.string == "https://photos.example/g.png")
            #expect(update.json["idToken"] == nil)  // no credential changed, no new token
            let after = try await e.account("lookup", #"{"idToken":"\#(token)"}"#)
            #expect(after.json["users"]?.elements.first?["displayName"]?.string == "Grace Hopper")
            let again = try await e.account(
                "signInWithPassword", #"{"email":"grace@example.com","password":"secret1"}"#)
            #expect(claims(of: again.json["idToken"]?.string)["name"]?.string == "Grace Hopper")
            #expect(claims(of: again.json["idToken"]?.string)["picture"]?.string == "https://photos.example/g.png")

            let removeName = try await e.account(
                "update", #"{"idToken":"\#(token)","deleteAttribute":["DISPLAY_NAME"]}"#)
            #expect(removeName.json["displayName"] == nil)

            let delete = try await e.account("delete", #"{"idToken":"\#(token)"}"#)
            #expect(delete.status == 200)
            #expect(delete.json["kind"]?.string == "identitytoolkit#DeleteAccountResponse")
            let gone = try await e.account("lookup", #"{"idToken":"\#(token)"}"#)
            #expect(gone.status == 400)
            #expect(gone.errorMessage == "USER_NOT_FOUND")
            let noLogin = try await e.account(
                "signInWithPassword", #"{"email":"grace@example.com","password":"secret1"}"#)
            #expect(noLogin.errorMessage == "EMAIL_NOT_FOUND")
        }
    }

    @Test func accountErrors() async throws {
        try await withEmulators { e in
            _ = try await e.account("signUp", #"{"email":"a@b.co","password":"secret1"}"#)
            let duplicate = try await e.account("signUp", #"{"email":"A@B.co","password":"other12"}"#)
            #expect(duplicate.status == 400)
            #expect(duplicate.json["error"]?["message"]?.string == "EMAIL_EXISTS")
            #expect(duplicate.json["error"]?["errors"]?.elements.first?["message"]?.string == "EMAIL_EXISTS")

            #expect(try await e.account("signUp", #"{"email":"x@y.z"}"#).errorMessage == "MISSING_PASSWORD")
            #expect(try await e.account("signUp", #"{"password":"secret1"}"#).errorMessage == "MISSING_EMAIL")
            #expect(
                try await e.account("signUp", #"{"email":"nope","password":"secret1"}"#).errorMessage == "INVALID_EMAIL"
            )
            #expect(
                try await e.account("signUp", #"{"email":"w@y.z","password":"12345"}"#).errorMessage
                    == "WEAK_PASSWORD : Password should be at least 6 characters")
            #expect(try await e.account("signInWithPassword", #"{"password":"x"}"#).errorMessage == "MISSING_EMAIL")
            #expect(
                try await e.account("signInWithPassword", #"{"email":"a@b.co"}"#).errorMessage == "MISSING_PASSWORD")
            #expect(
                try await e.account("signInWithPassword", #"{"email":"a@b.co","password":"wrong12"}"#).errorMessage
                    == "INVALID_PASSWORD")
            #expect(
                try await e.account("signInWithPassword", #"{"email":"who@b.co","password":"secret1"}"#).errorMessage
                    == "EMAIL_NOT_FOUND")
            #expect(try await e.account("lookup", "{}").errorMessage == "MISSING_ID_TOKEN")
            #expect(try await e.account("lookup", #"{"idToken":"garbage"}"#).errorMessage == "INVALID_ID_TOKEN")
            #expect(try await e.account("delete", "{}").errorMessage == "MISSING_ID_TOKEN")
            #expect(
                try await e.account("update", #"{"displayName":"x"}"#).errorMessage
                    == "INVALID_REQ_TYPE : Unsupported request parameters.")
            let badJSON = try await e.account("signUp", "{")
            #expect(badJSON.status == 400)
            #expect(badJSON.json["error"]?["status"]?.string == "INVALID_ARGUMENT")

            // Improved email privacy: one code for unknown email and wrong password.
            let patch = try await Emulators.send(
                "PATCH", e.authURL("/emulator/v1/projects/\(e.project)/config"),
                body: #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#)
            #expect(patch.status == 200)
            #expect(patch.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] == .bool(true))
            #expect(
                try await e.account("signInWithPassword", #"{"email":"a@b.co","password":"wrong12"}"#).errorMessage
                    == "INVALID_LOGIN_CREDENTIALS")
            #expect(
                try await e.account("signInWithPassword", #"{"email":"who@b.co","password":"secret1"}"#).errorMessage
                    == "INVALID_LOGIN_CREDENTIALS")
            let config = try await Emulators.send("GET", e.authURL("/emulator/v1/projects/\(e.project)/config"))
            #expect(config.json["signIn"]?["allowDuplicateEmails"] == .bool(false))

            // No API key and no owner credential.
            let noKey = try await Emulators.send(
                "POST", e.authURL("/identitytoolkit.googleapis.com/v1/accounts:signUp"), body: "{}")
            #expect(noKey.status == 403)
            #expect(noKey.errorMessage == "The request is missing a valid API key.")
            #expect(noKey.json["error"]?["status"]?.string == "PERMISSION_DENIED")
            let unknown = try await Emulators.send("GET", e.authURL("/nothing/here"))
            #expect(unknown.status == 404)
            let notImplemented = try await e.account(
                "sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"a@b.co"}"#)
            #expect(notImplemented.status == 501)
        }
    }

    @Test func anonymousSignUpAndUpgrade() async throws {
        try await withEmulators { e in
            let anon = try await e.account("signUp", #"{"returnSecureToken":true}"#)
            #expect(anon.status == 200)
            let uid = try #require(anon.json["localId"]?.string)
            let token = try #require(anon.json["idToken"]?.string)
            let c = claims(of: token)
            #expect(c["provider_id"]?.string == "anonymous")
            #expect(c["firebase"]?["sign_in_provider"]?.string == "anonymous")
            #expect(c["email"] == nil)
            // Linking email/password to the anonymous account keeps the uid.
            let upgrade = try await e.account(
                "signUp", #"{"idToken":"\#(token)","email":"anon@x.io","password":"secret1","returnSecureToken":true}"#)
            #expect(upgrade.status == 200, "\(upgrade.text)")
            #expect(upgrade.json["localId"]?.string == uid)
            #expect(claims(of: upgrade.json["idToken"]?.string)["firebase"]?["sign_in_provider"]?.string == "password")
        }
    }

    @Test func adminFormsWithBearerOwner() async throws {
        try await withEmulators { e in
            let owner = ["Authorization": "Bearer owner"]
            let base = "/identitytoolkit.googleapis.com/v1/projects/\(e.project)"
            let create = try await Emulators.send(
                "POST", e.authURL("\(base)/accounts"),
                body: #"{"localId":"admin-made","email":"m@x.io","displayName":"Made","emailVerified":true}"#,
                headers: owner)
            #expect(create.status == 200, "\(create.text)")
            #expect(create.json["localId"]?.string == "admin-made")
            #expect(create.json["idToken"] == nil)
            let lookup = try await Emulators.send(
                "POST", e.authURL("\(base)/accounts:lookup"), body: #"{"localId":["admin-made","missing"]}"#,
                headers: owner)
            #expect(lookup.json["users"]?.elements.count == 1)
            #expect(lookup.json["users"]?.elements.first?["emailVerified"] == .bool(true))
            let none = try await Emulators.send(
                "POST", e.authURL("\(base)/accounts:lookup"), body: #"{"localId":["missing"]}"#, headers: owner)
            #expect(none.status == 200)
            #expect(none.json["users"] == nil)
            let claims = try await Emulators.send(
                "POST", e.authURL("\(base)/accounts:update"),
                body: #"{"localId":"admin-made","customAttributes":"{\"role\":\"admin\"}"}"#, headers: owner)
            #expect(claims.status == 200, "\(claims.text)")
            let forbidden = try await Emulators.send(
                "POST", e.authURL("\(base)/accounts:update"),
                body: #"{"localId":"admin-made","customAttributes":"{\"sub\":\"x\"}"}"#, headers: owner)
            #expect(forbidden.errorMessage == "FORBIDDEN_CLAIM : sub")
            let list = try await Emulators.send(
                "GET", e.authURL("\(base)/accounts:batchGet?maxResults=-1"), headers: owner)
            #expect(list.json["users"]?.elements.map { $0["localId"]?.string } == ["admin-made"])
            #expect(list.json["users"]?.elements.first?["customAttributes"]?.string == #"{"role":"admin"}"#)
            let missing = try await Emulators.send(
                "POST", e.authURL("\(base)/accounts:delete"), body: #"{"localId":"missing"}"#, headers: owner)
            #expect(missing.errorMessage == "USER_NOT_FOUND")
            let notOwner = try await Emulators.send(
                "POST", e.authURL("\(base)/accounts:lookup"), body: #"{"localId":["x"]}"#,
                headers: ["Authorization": "Bearer not-a-token"])
            #expect(notOwner.status == 401)
            let delete = try await Emulators.send(
                "POST", e.authURL("\(base)/accounts:delete"), body: #"{"localId":"admin-made"}"#, headers: owner)
            #expect(delete.status == 200)
        }
    }

    @Test func emulatorEndpointsAndCORS() async throws {
        try await withEmulators { e in
            let root = try await Emulators.send("GET", e.authURL("/"))
            #expect(root.json["authEmulator"]?["ready"] == .bool(true))
            _ = try await e.account("signUp", #"{"email":"c@x.io","password":"secret1"}"#)
            let clear = try await Emulators.send("DELETE", e.authURL("/emulator/v1/projects/\(e.project)/accounts"))
            #expect(clear.status == 200)
            #expect(clear.text == "{}")
            #expect(
                try await e.account("signInWithPassword", #"{"email":"c@x.io","password":"secret1"}"#).errorMessage
                    == "EMAIL_NOT_FOUND")
            let oob = try await Emulators.send("GET", e.authURL("/emulator/v1/projects/\(e.project)/oobCodes"))
            #expect(oob.json["oobCodes"] == .array([]))
            let preflight = try await Emulators.send(
                "OPTIONS", e.authURL("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k"),
                headers: [
                    "Origin": "http://localhost:5000", "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "content-type,x-client-version",
                ])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "http://localhost:5000")
            #expect(preflight.headers["access-control-allow-headers"] == "content-type,x-client-version")
            let withOrigin = try await Emulators.send("GET", e.authURL("/"), headers: ["Origin": "http://app.test"])
            #expect(withOrigin.headers["access-control-allow-origin"] == "http://app.test")
        }
    }
}
