import GoogleWire
import HTTPServer

/// The functions port's emulator endpoints (not part of any Firebase protocol):
///
/// * `GET /emulator/v1/projects/{project}/fcm/outbox` → 200 `{"messages":[…], "rejected":[…]}`,
///   oldest first (each message shaped as `OutboxMessage.jsonValue`; each rejection
///   `{token, code, at}`: the pushes FCM refused, e.g. unregistered tokens).
/// * `DELETE /emulator/v1/projects/{project}/fcm/outbox` → 200 `{}`; the outbox is emptied.
/// * `POST /emulator/v1/projects/{project}/functions/{name}:run` → runs scheduled function
///   `name` now; 200 `{"result": …}`, or the callable error body with its status.
///
/// Another project, an unknown function: 404 NOT_FOUND (JSON error body). Another method on
/// a known path: 405. Any other path: nil (not this handler's).
public struct EmulatorFunctionsHTTPHandler: Sendable {
    /// The host served.
    public let host: FunctionsHost

    /// Creates the handler.
    public init(host: FunctionsHost) { self.host = host }

    /// The response when `request` addresses one of these endpoints, else nil.
    public func response(for request: HTTPRequest) async -> HTTPResponse? {
        guard let s = PathSegments.split(request.path), s.count >= 4, s[0] == "emulator", s[1] == "v1",
            s[2] == "projects"
        else { return nil }
        if s.count == 6, s[4] == "fcm", s[5] == "outbox" {
            guard s[3] == host.project else { return Self.notFound("Project \(s[3]) is not served here.") }
            switch request.method {
            case "GET", "HEAD":
                let rejected: [CallableValue] = host.outbox.rejections.map {
                    .object(["token": .string($0.token), "code": .string($0.code), "at": .string($0.at.rfc3339)])
                }
                return .json(
                    200,
                    Self.encode(
                        .object(["messages": .array(host.outbox.messages.map(\.jsonValue)), "rejected": .array(rejected)])))
            case "DELETE":
                host.outbox.clear()
                return .json(200, Array("{}".utf8))
            default:
                return Self.methodNotAllowed("GET, DELETE")
            }
        }
        if s.count == 6, s[4] == "functions", s[5].hasSuffix(":run") {
            guard s[3] == host.project else { return Self.notFound("Project \(s[3]) is not served here.") }
            guard request.method == "POST" else { return Self.methodNotAllowed("POST") }
            do throws(CallableError) {
                let result = try await host.runScheduled(String(s[5].dropLast(4)))
                return .json(200, try CallableWire.encodeResult(result))
            } catch {
                return .json(ErrorTable.httpStatus(error.code), CallableWire.encodeError(error))
            }
        }
        return nil
    }

    /// Compact JSON of a value that holds no doubles (cannot fail).
    static func encode(_ value: CallableValue) -> [UInt8] {
        (try? value.jsonBytes()) ?? Array("{}".utf8)
    }

    /// 404 with a NOT_FOUND error body.
    static func notFound(_ message: String) -> HTTPResponse {
        .json(404, CallableWire.encodeError(.notFound(message)))
    }

    /// 405 with an `Allow` header.
    static func methodNotAllowed(_ allow: String) -> HTTPResponse {
        var r = HTTPResponse.json(405, CallableWire.encodeError(.init(.invalidArgument, "Method not allowed.")))
        r.headers.add("allow", allow)
        return r
    }
}
