import Foundation
import Testing

@testable import SecurityRules

/// Runs the data-driven suites under `rules/` (the same runner `hearth rules test` uses).
struct RulesSuiteTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func runSuites(_ relative: String) throws -> (passed: Int, failed: Int, log: String) {
        var lines: [String] = []
        let dir = repositoryRoot.appendingPathComponent(relative).path
        let result = try RulesTestRunner.run(directory: dir) { lines.append($0) }
        return (result.passed, result.failed, lines.filter { !$0.contains("PASS") }.joined(separator: "\n"))
    }

    @Test func shoutsSuitesPass() throws {
        let r = try Self.runSuites("rules/shouts")
        #expect(r.failed == 0, "\(r.log)")
        #expect(r.passed >= 40)
    }

    @Test func poetrySuitesPass() throws {
        let r = try Self.runSuites("rules/poetry")
        #expect(r.failed == 0, "\(r.log)")
        #expect(r.passed >= 38)
    }

    @Test func languageSuitesPass() throws {
        let r = try Self.runSuites("rules/language")
        #expect(r.failed == 0, "\(r.log)")
        #expect(r.passed >= 100)
    }

    @Test func runnerReportsFailuresWithExplanations() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rules-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let suite = """
            {"condition": "request.auth.uid == 'alice'",
             "cases": [
               {"name": "right", "auth": "alice", "expect": "allow"},
               {"name": "wrong on purpose", "auth": "bob", "expect": "allow"}
             ]}
            """
        try suite.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        var lines: [String] = []
        let r = try RulesTestRunner.run(directory: dir.path) { lines.append($0) }
        #expect(r.passed == 1 && r.failed == 1)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("FAIL  wrong on purpose"))
        #expect(text.contains("expected allow, got deny"))
        #expect(text.contains("request.auth.uid == 'alice'"))
    }

    @Test func missingDirectoryThrows() {
        #expect(throws: RulesTestRunner.RunnerError.self) {
            _ = try RulesTestRunner.run(directory: "/nonexistent-rules-dir-xyz") { _ in }
        }
    }
}
