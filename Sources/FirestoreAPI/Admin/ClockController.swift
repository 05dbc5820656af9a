import FirestoreEngine
import FirestoreModel
import GoogleWire
import HTTPServer

/// `GET|PUT /emulator/v1/clock` on the Firestore port: reads and moves the emulators' clock
/// (`EmulatorClock`, issue 16 item 4). Off by default (the system clock).
///
/// `PUT` (or `POST`) takes one instruction:
///
/// | body | effect |
/// |---|---|
/// | `{"freeze": true}` / `{"freeze": "T"}` | stop at now / at RFC 3339 `T` |
/// | `{"freeze": false}` | run again from where it stands |
/// | `{"set": "T"}` | the time is `T` (a frozen clock stays frozen) |
/// | `{"advance": "600s"}` or `{"advance": 600}` | forward by seconds (`"1.5s"`, `"10m"`, `"2h"`, `"31d"` too; negative goes back) |
/// | `{"reset": true}` (or `DELETE`) | the system clock again |
///
/// Both answer `{"mode": "system"|"frozen"|"offset", "now": T, "offsetSeconds": n?, "description"}`.
/// Every change is logged. Commit times never go backwards (`EmulatorClock`).
public struct ClockController: Sendable {
    /// The clock.
    public let clock: EmulatorClock
    let log: @Sendable (String) -> Void

    /// Creates the endpoint for `clock`; `log` receives one line per change.
    public init(clock: EmulatorClock, log: @escaping @Sendable (String) -> Void) {
        self.clock = clock
        self.log = log
    }

    /// Answers `/emulator/v1/clock`.
    /// - Throws: `.invalidArgument` for a body that is not one instruction above.
    func handle(_ method: String, body: [UInt8]) throws(FirestoreError) -> HTTPResponse {
        switch method {
        case "GET": break
        case "DELETE":
            clock.reset()
            log("clock: \(clock.description)")
        case "PUT", "POST":
            try apply(body)
            log("clock: \(clock.description)")
        default: throw FirestoreError(.notFound, "No emulator method \(method) /emulator/v1/clock.")
        }
        return .json(200, state.serialized())
    }

    /// The clock as JSON.
    public var state: JSONValue {
        var members: [JSONValue.Member] = []
        switch clock.mode {
        case .system: members.append(.init("mode", .string("system")))
        case .frozen: members.append(.init("mode", .string("frozen")))
        case .offset(let d):
            members.append(.init("mode", .string("offset")))
            members.append(.init("offsetSeconds", .number("\(Double(d) / 1_000_000)")))
        }
        members.append(.init("now", .string(clock.now().rfc3339)))
        members.append(.init("description", .string(clock.description)))
        return .object(members)
    }

    func apply(_ body: [UInt8]) throws(FirestoreError) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            throw .invalidArgument("Invalid JSON payload received. \(error.message)")
        }
        guard case .object(let members) = json, members.count == 1, let only = members.first else {
            throw .invalidArgument("The clock takes one of freeze, set, advance or reset.")
        }
        switch (only.key, only.value) {
        case ("freeze", .bool(true)): clock.freeze()
        case ("freeze", .bool(false)): clock.resume()
        case ("freeze", .string(let text)): clock.freeze(at: try Self.instant(text))
        case ("set", .string(let text)): clock.set(try Self.instant(text))
        case ("advance", let amount):
            let d = try Self.microseconds(amount)
            let now = clock.now().microseconds
            let (to, overflow) = now.addingReportingOverflow(d)
            guard !overflow else { throw Self.outOfRange }
            _ = try Self.inRange(Timestamp(microseconds: to))
            clock.advance(microseconds: d)
        case ("reset", .bool(true)): clock.reset()
        default:
            throw .invalidArgument(
                "The clock takes {\"freeze\": true|false|\"T\"}, {\"set\": \"T\"}, {\"advance\": \"600s\"} or {\"reset\": true}.")
        }
    }

    static func instant(_ text: String) throws(FirestoreError) -> Timestamp {
        guard let t = Timestamp(rfc3339: text), t.isValid else {
            throw .invalidArgument("\(text) is not an RFC 3339 time (e.g. 2026-01-02T03:04:05Z).")
        }
        return try inRange(t)
    }

    /// The latest time the clock may show: a day before Firestore's last timestamp, so commit
    /// times issued after it (one microsecond apart at least) stay valid.
    static let latest = Timestamp(seconds: Timestamp.maxSeconds - 86_400, nanos: 0)

    static let outOfRange = FirestoreError.invalidArgument(
        "The clock stays within 0001-01-01T00:00:00Z … 9999-12-30T23:59:59Z (Firestore's timestamps).")

    /// `t` when the clock may show it. - Throws: `.invalidArgument` outside the range.
    static func inRange(_ t: Timestamp) throws(FirestoreError) -> Timestamp {
        guard t.isValid, !(latest < t) else { throw outOfRange }
        return t
    }

    /// Seconds as a number, or a text with the unit `s`, `m` or `h`.
    static func microseconds(_ amount: JSONValue) throws(FirestoreError) -> Int64 {
        var seconds: Double?
        switch amount {
        case .number(let n): seconds = Double(n)
        case .string(let text):
            let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
            for (unit, scale) in units where text.hasSuffix(unit) {
                let number = text.dropLast(unit.count)
                // Decimal only ("0x10" would parse as hexadecimal).
                if number.allSatisfy({ "0123456789.+-eE".contains($0) }), let v = Double(number) { seconds = v * scale }
                break
            }
        default: break
        }
        guard let seconds, seconds.isFinite, abs(seconds) < 1e10 else {
            throw .invalidArgument("advance takes seconds: a number, or a text such as \"600s\", \"10m\", \"2h\" or \"31d\".")
        }
        return Int64((seconds * 1_000_000).rounded())
    }
}
