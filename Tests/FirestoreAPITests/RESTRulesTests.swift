import FirestoreAPI
import Foundation
import GoogleWire
import Testing

/// Unsigned emulator token (`alg: none`) for `uid`, as rules-unit-testing builds them (docs/reference/firestore-wire.md §2.7).
func mockToken(_ uid: String, project: String = "demo-rest") -> String {
    func b64(_ s: String) -> String {
        Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    let payload = #"{"iss":"https://securetoken.google.com/\#(project)","aud":"\#(project)","iat":0,"exp":3600,"auth_time":0,"sub":"\#(uid)","user_id":"\#(uid)","firebase":{"sign_in_provider":"custom","identities":{}}}"#
    return b64(#"{"alg":"none","type":"JWT"}"#) + "." + b64(payload) + "."
}

let ownerOnlyRules = """
    rules_version = '2';
    service cloud.firestore {
      match /databases/{database}/documents {
        match /notes/{uid} {
          allow read, write: if request.auth != null && request.auth.uid == uid;
        }
      }
    }
    """

@Suite(.serialized) struct RESTRulesTests {
    @Test func rulesDecideEveryClientRequestAndOwnerBypasses() async throws {
        try await withHearth(rules: ownerOnlyRules) { c in
            let doc = #"{"fields":{"t":{"stringValue":"hi"}}}"#
            #expect(try await c.call("PATCH", c.documents + "/notes/alice", doc, token: mockToken("alice")).status == 200)
            let denied = try await c.call("PATCH", c.documents + "/notes/alice", doc, token: mockToken("bob"))
            #expect(denied.status == 403)
            #expect(denied.json[path: "error", "status"]?.stringValue == "PERMISSION_DENIED")
            #expect(denied.json[path: "error", "message"]?.stringValue?.contains("for 'update' @ L5") == true)
            #expect(try await c.call("GET", c.documents + "/notes/alice", token: nil).status == 403)
            #expect(try await c.call("GET", c.documents + "/notes/alice", token: "owner").status == 200)

            let explained = try await c.call("GET", "/emulator/v1/projects/\(c.project):ruleExplanations", token: nil)
            let list = explained.json["explanations"]?.arrayValue ?? []
            #expect(list.count == 2)
            #expect(list.first?["auth"]?.stringValue == "uid bob")
        }
    }

    @Test func putSecurityRulesReplacesAndRejectsErrorsKeepingRulesInForce() async throws {
        try await withHearth(rules: ownerOnlyRules) { c in
            let open = #"rules_version = '2'; service cloud.firestore { match /databases/{d}/documents { match /{p=**} { allow read, write: if true; } } }"#
            let body = String(decoding: JSONValue.object(["rules": .object(["files": .array([.object(["content": .string(open)])])])]).serialized(), as: UTF8.self)
            #expect(try await c.call("PUT", "/emulator/v1/projects/\(c.project):securityRules", body, token: nil).status == 200)
            #expect(try await c.call("GET", c.documents + "/notes/x", token: nil).status == 404)

            let broken = String(decoding: JSONValue.object(["rules": .object(["files": .array([.object(["content": .string("service cloud.firestore { match /x { allow read: if ; } }")])])])]).serialized(), as: UTF8.self)
            let rejected = try await c.call("PUT", "/emulator/v1/projects/\(c.project):securityRules", broken, token: nil)
            #expect(rejected.status == 400)
            #expect(rejected.json[path: "error", "message"]?.stringValue?.contains(":1:") == true)
            // The open rules stay in force.
            #expect(try await c.call("GET", c.documents + "/notes/x", token: nil).status == 404)
        }
    }

    @Test func coverageEndpointsAnswer() async throws {
        try await withHearth(rules: ownerOnlyRules) { c in
            _ = try await c.call("GET", c.documents + "/notes/alice", token: mockToken("alice"))
            let json = try await c.call("GET", "/emulator/v1/projects/\(c.project):ruleCoverage", token: nil)
            #expect(json.status == 200)
            let html = try await c.call("GET", "/emulator/v1/projects/\(c.project):ruleCoverage.html", token: nil)
            #expect(html.status == 200)
            #expect(html.text.contains("notes"))
        }
    }
}
