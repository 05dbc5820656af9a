import FoundationEssentials
import SecurityRules

extension HearthCLI {
    /// `hearth rules test DIR`: runs the declarative rules suites in DIR in-process, printing
    /// one line per case and the explanation of each failure.
    /// - Returns: 0 when every case passes, 1 otherwise, 2 for a usage mistake.
    static func rulesCommand(_ args: [String]) throws -> Int32 {
        guard args.first == "test" else {
            HearthLog.error("usage: hearth rules test DIR")
            return 2
        }
        let directory = args.count > 1 ? args[1] : "rules"
        let result = try RulesTestRunner.run(directory: directory) { HearthLog.info($0) }
        return result.failed == 0 ? 0 : 1
    }
}
