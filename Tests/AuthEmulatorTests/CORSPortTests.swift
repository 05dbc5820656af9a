import Foundation
import Testing

/// The CORS answers of the Firestore, Auth and hub ports of a running Hearth (one
/// `CORSPolicy`; the Functions port is covered by `CallableHTTPHandlerTests`): an answer with
/// `Origin` echoes it with credentials, a preflight echoes the requested headers.
@Suite struct CORSPortTests {
    static let origin = "http://localhost:5173"
    static let requested = "google-cloud-resource-prefix, x-goog-api-client, authorization, content-type"

    static func preflight(_ url: String) async throws -> Emulators.Reply {
        try await Emulators.send(
            "OPTIONS", url,
            headers: [
                "Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": requested,
            ])
    }

    @Test func firestoreAuthAndHubAnswerWithTheSamePolicy() async throws {
        try await withEmulators { e in
            let ports = [
                ("firestore", e.firestoreURL(e.documents + "/c/a"), 200, "DELETE,GET,HEAD,PATCH,POST,PUT"),
                ("auth", e.authURL("/"), 204, "GET,HEAD,PUT,PATCH,POST,DELETE"),
                ("hub", e.hubURL("/emulators"), 204, "GET,HEAD,PUT,PATCH,POST,DELETE"),
            ]
            for (name, url, preflightStatus, methods) in ports {
                let answer = try await Emulators.send("GET", url, headers: ["Origin": Self.origin])
                #expect(answer.headers["access-control-allow-origin"] == Self.origin, "\(name)")
                #expect(answer.headers["access-control-allow-credentials"] == "true", "\(name)")
                #expect(answer.headers["access-control-allow-methods"] == methods, "\(name)")
                let preflight = try await Self.preflight(url)
                #expect(preflight.status == preflightStatus, "\(name)")
                #expect(preflight.body.isEmpty, "\(name)")
                #expect(preflight.headers["access-control-allow-origin"] == Self.origin, "\(name)")
                #expect(preflight.headers["access-control-allow-credentials"] == "true", "\(name)")
                #expect(preflight.headers["access-control-allow-headers"] == Self.requested, "\(name)")
            }
            // Without an Origin: `*` where it was sent before (Firestore, Auth), nothing on the hub.
            #expect(try await Emulators.send("GET", e.firestoreURL("/")).headers["access-control-allow-origin"] == "*")
            #expect(try await Emulators.send("GET", e.authURL("/")).headers["access-control-allow-origin"] == "*")
            #expect(try await Emulators.send("GET", e.hubURL("/")).headers["access-control-allow-origin"] == nil)
        }
    }
}
