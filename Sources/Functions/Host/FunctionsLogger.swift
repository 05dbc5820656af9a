import Synchronization

/// The functions' logger, as `firebase-functions/logger` offers it (`debug`, `info`, `warn`,
/// `error`): a line written during an invocation is kept with that invocation in the host's
/// `InvocationJournal` (the Emulator UI's functions view) and printed to the host's log.
/// Outside an invocation it is only printed. Source: firebase.google.com "Write and view logs"
/// (Cloud Functions), the `logger` SDK.
public enum FunctionsLogger {
    /// A severity, as Cloud Logging names them.
    public enum Severity: String, Sendable {
        case debug = "DEBUG", info = "INFO", warning = "WARNING", error = "ERROR"
    }

    /// Where the lines of the running invocation go; set by the host around each invocation.
    @TaskLocal static var current: InvocationLog?

    /// Logs `message` at DEBUG.
    public static func debug(_ message: String) { write(.debug, message) }
    /// Logs `message` at INFO.
    public static func info(_ message: String) { write(.info, message) }
    /// Logs `message` at WARNING.
    public static func warn(_ message: String) { write(.warning, message) }
    /// Logs `message` at ERROR.
    public static func error(_ message: String) { write(.error, message) }

    static func write(_ severity: Severity, _ message: String) {
        let line = "\(severity.rawValue) \(message)"
        if let log = current {
            log.append(line)
        } else {
            FunctionsHost.printLine("functions: \(line)")
        }
    }
}

/// The log lines of one invocation (at most `limit`; later lines are counted, not kept).
final class InvocationLog: Sendable {
    static let limit = 200
    let function: String
    let sink: @Sendable (String) -> Void
    private let lines = Mutex<(kept: [String], dropped: Int)>(([], 0))

    init(function: String, sink: @escaping @Sendable (String) -> Void) {
        self.function = function
        self.sink = sink
    }

    func append(_ line: String) {
        sink("functions: \(function): \(line)")
        lines.withLock { l in
            if l.kept.count < Self.limit { l.kept.append(line) } else { l.dropped += 1 }
        }
    }

    /// The kept lines, and a last line counting the dropped ones.
    var all: [String] {
        lines.withLock { l in l.dropped == 0 ? l.kept : l.kept + ["(\(l.dropped) more lines not kept)"] }
    }
}
