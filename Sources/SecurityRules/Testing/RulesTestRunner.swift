import FirestoreModel
import FoundationEssentials

/// Runs rules test suites: JSON files of cases with expected verdicts (format in
/// `rules/README.md`; docs/reference/security-rules.md §12.1). `hearth rules test <dir>` calls `run`.
public enum RulesTestRunner {
    /// A suite directory or file that cannot be read.
    public struct RunnerError: Error, CustomStringConvertible {
        /// What went wrong.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// Runs every `*.json` suite under `directory` (or the single file it names), in path order.
    ///
    /// Logs one `PASS`/`FAIL` line per case and, for each failure, the expectation and the
    /// decision's full explanation. A suite that does not parse counts as one failure.
    /// - Throws: `RunnerError` when `directory` does not exist or cannot be listed.
    /// - Returns: the numbers of passed and failed cases.
    public static func run(directory: String, log: (String) -> Void) throws -> (passed: Int, failed: Int) {
        let fm = FileManager.default
        var isDir = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDir) else {
            throw RunnerError(message: "No such file or directory: \(directory)")
        }
        var files: [String] = []
        if isDir {
            guard let all = try? fm.subpathsOfDirectory(atPath: directory) else {
                throw RunnerError(message: "Cannot list \(directory)")
            }
            files = all.filter { $0.hasSuffix(".json") }.map { URL(fileURLWithPath: directory).appendingPathComponent($0).path }
            files.sort()
        } else {
            files = [directory]
        }
        var passed = 0
        var failed = 0
        var cache: [String: Result<Ruleset, RulesCompileError>] = [:]
        for file in files {
            log("suite \(file)")
            do {
                let cases = try loadSuite(file)
                for c in cases {
                    let ok = runCase(c, cache: &cache, log: log)
                    if ok { passed += 1 } else { failed += 1 }
                }
            } catch {
                log("  FAIL  (suite) \(error)")
                failed += 1
            }
        }
        log("\(passed) passed, \(failed) failed")
        return (passed, failed)
    }

    /// Runs one case; true when it passes.
    static func runCase(_ c: RulesTestCase, cache: inout [String: Result<Ruleset, RulesCompileError>], log: (String) -> Void) -> Bool {
        let compiled: Result<Ruleset, RulesCompileError>
        if let hit = cache[c.rulesText] {
            compiled = hit
        } else {
            do { compiled = .success(try Ruleset(source: c.rulesText, fileName: c.rulesFile)) } catch { compiled = .failure(error) }
            cache[c.rulesText] = compiled
        }
        switch compiled {
        case .failure(let err):
            if c.expect == .compileError, c.message.map({ err.description.contains($0) }) ?? true {
                log("  PASS  \(c.name)")
                return true
            }
            log("  FAIL  \(c.name)\n    expected \(c.expect.rawValue), rules did not compile:\n" + indent(err.description, "    "))
            return false
        case .success(let ruleset):
            if c.expect == .compileError {
                log("  FAIL  \(c.name)\n    expected compile_error, rules compiled")
                return false
            }
            let access = SuiteAccess(before: c.before, after: c.after)
            let decision = ruleset.decide(c.request, access: access)
            let verdict: RulesTestCase.Expectation = decision.allowed ? .allow : .deny
            var ok = verdict == c.expect
            var why = "expected \(c.expect.rawValue), got \(verdict.rawValue)"
            if ok, let m = c.message, !decision.explanation.emulatorMessage.contains(m) {
                ok = false
                why = "expected message containing \(m.debugDescription), got \(decision.explanation.emulatorMessage.debugDescription)"
            }
            if ok {
                log("  PASS  \(c.name)")
            } else {
                log("  FAIL  \(c.name)\n    \(why)\n" + indent(decision.explanation.description, "    "))
            }
            return ok
        }
    }

    /// Prefixes every line of `s`.
    static func indent(_ s: String, _ prefix: String) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }

    /// Reads one suite file into cases.
    static func loadSuite(_ file: String) throws -> [RulesTestCase] {
        guard let data = FileManager.default.contents(atPath: file) else { throw RunnerError(message: "Cannot read \(file)") }
        let json = try TestJSON.parse(String(decoding: data, as: UTF8.self))
        let dir = URL(fileURLWithPath: file).deletingLastPathComponent().path
        return try SuiteLoader(suite: json, directory: dir, fileName: file).cases()
    }
}

/// Documents of a test case: before the request and after its commit.
struct SuiteAccess: RulesDocumentAccess {
    /// State before the commit.
    var before: [ResourcePath: Document]
    /// State after the commit.
    var after: [ResourcePath: Document]
    /// The stored document.
    func get(_ path: ResourcePath) throws -> Document? { before[path] }
    /// The document after the commit.
    func getAfter(_ path: ResourcePath) throws -> Document? { after[path] }
}
