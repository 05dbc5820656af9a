import FirestoreModel

/// How often a scheduled function runs: a fixed interval.
///
/// Parses the App Engine cron interval form that `onSchedule` accepts for periodic jobs,
/// `every N (seconds|minutes|hours|days)` (singular too, e.g. `every 24 hours`, `every 1 day`,
/// `every day` = 24 h). Cron expressions and "every day 09:00"-style times are not supported;
/// an in-process emulator runs jobs on their interval from start-up, and
/// `POST …/functions/{name}:run` runs one on demand.
public struct Schedule: Sendable, Hashable, CustomStringConvertible {
    /// Time between runs; positive.
    public var interval: Duration

    /// A schedule running every `interval`.
    /// - Precondition: `interval` is positive.
    public init(every interval: Duration) {
        precondition(interval > .zero, "a schedule's interval must be positive")
        self.interval = interval
    }

    /// Parses `every N unit`.
    /// - Throws: `.invalidArgument` for any other text, a count of 0, or a count that overflows.
    public init(parsing text: String) throws(FirestoreError) {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard words.first == "every", words.count == 2 || words.count == 3 else {
            throw .invalidArgument("Unsupported schedule \"\(text)\": expected \"every N minutes|hours|days\".")
        }
        let count: Int64
        if words.count == 2 {
            count = 1
        } else if let n = Int64(words[1]), n > 0, n <= 1_000_000 {
            count = n
        } else {
            throw .invalidArgument("Unsupported schedule \"\(text)\": the count must be a positive integer.")
        }
        let unitSeconds: Int64
        switch words[words.count - 1] {
        case "second", "seconds": unitSeconds = 1
        case "minute", "minutes", "mins": unitSeconds = 60
        case "hour", "hours": unitSeconds = 3600
        case "day", "days": unitSeconds = 86_400
        default: throw .invalidArgument("Unsupported schedule \"\(text)\": unknown unit.")
        }
        self.init(every: .seconds(count * unitSeconds))
    }

    /// The schedule in the form it parses from, in the largest whole unit: `every 24 hours`,
    /// `every 5 minutes`, `every 1 day` is written `every 24 hours`, sub-second parts as seconds.
    public var description: String {
        let c = interval.components
        guard c.attoseconds == 0 else { return "every \(Double(c.seconds) + Double(c.attoseconds) / 1e18) seconds" }
        for (size, unit) in [(Int64(3600), "hour"), (60, "minute")] where c.seconds % size == 0 {
            let n = c.seconds / size
            return "every \(n) \(unit)\(n == 1 ? "" : "s")"
        }
        return "every \(c.seconds) second\(c.seconds == 1 ? "" : "s")"
    }
}
