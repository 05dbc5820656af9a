import FirestoreModel
import Foundation
import SecurityRules

/// Issue 3: rules decisions per second on one thread, in-process through
/// `Ruleset.decide(_:access:)`, beside cel-python evaluating the same conditions.
struct RulesSection {
    /// Run settings.
    let options: BenchOptions
    /// Progress lines go here (stderr).
    let progress: @Sendable (String) -> Void

    /// Runs the section.
    func run() async -> BenchTable {
        var table = BenchTable(title: "Issue 3 — security rules decisions per second (one thread)", baselineName: "cel-python")
        table.emulatorName = "emulator"
        let appRules = PackageRoot.path("firebase/firestore.rules")
        var presenceText = RulesWorkload.representativeRules
        var presenceName = "representative.rules"
        if let text = try? String(contentsOfFile: appRules, encoding: .utf8) {
            presenceText = text
            presenceName = "firestore.rules"
            table.notes.append("presence cases: the app's firebase/firestore.rules.")
        } else {
            table.notes.append(
                "presence cases: firebase/firestore.rules is not in this tree, so a representative rule (owner check, keys().hasOnly, type checks, ranges, request.time, diff().affectedKeys()) stands in.")
        }
        let cases: [RulesWorkload.Case]
        do {
            cases = try RulesWorkload.cases(presenceRules: presenceText, presenceFileName: presenceName)
        } catch {
            table.notes.append("not measured: the rules do not compile:\n\(error)")
            return table
        }
        let python = PackageRoot.path(".build/bench-venv/bin/python")
        let script = PackageRoot.path("Benchmarks/cel/rules_baseline.py")
        let havePython = FileManager.default.isExecutableFile(atPath: python)
        if !havePython { table.notes.append("cel-python: no .build/bench-venv (run scripts/bench-deps.sh)") }
        for c in cases {
            progress("rules: \(c.name) in Hearth")
            let hearth = measureHearth(c, into: &table)
            var baseline = Cell.unavailable(havePython ? "failed" : "not installed")
            if havePython {
                progress("rules: \(c.name) in cel-python")
                baseline = await measurePython(python: python, script: script, c.name, into: &table)
            }
            table.rows.append(
                BenchRow(figure: c.label, hearth: hearth, emulator: .unavailable("n/a (no in-process API)"), baseline: baseline))
        }
        table.notes.append(
            "Hearth: Ruleset.decide on a prebuilt RulesRequest, including building request/resource values from the Documents and the get() reads (a dictionary lookup); at least \(String(format: "%.1f", options.rulesTime.seconds)) s per case.")
        table.notes.append(
            "cel-python: the same conditions restated in CEL (Benchmarks/cel/rules_baseline.py), activation and documents built once outside the loop — generous to the baseline. cel-python is a pure-Python tree-walking interpreter: a weak baseline.")
        table.notes.append("every timed decision is checked to be a grant (a denial can be cheaper).")
        return table
    }

    private func measureHearth(_ c: RulesWorkload.Case, into table: inout BenchTable) -> Cell {
        let first = c.ruleset.decide(c.request, access: RulesWorkload.documents)
        guard first.allowed else {
            table.notes.append("Hearth denied \(c.name): \(first.explanation)")
            return .unavailable("denied")
        }
        for _ in 0..<1000 { _ = c.ruleset.decide(c.request, access: RulesWorkload.documents) }
        let clock = ContinuousClock()
        let start = clock.now
        var decisions = 0
        var granted = 0
        var elapsed = Duration.zero
        repeat {
            for _ in 0..<256 {
                if c.ruleset.decide(c.request, access: RulesWorkload.documents).allowed { granted += 1 }
            }
            decisions += 256
            elapsed = clock.now - start
        } while elapsed < options.rulesTime
        guard granted == decisions else {
            table.notes.append("Hearth \(c.name): \(decisions - granted) of \(decisions) decisions denied")
            return .unavailable("denied")
        }
        return .measured(Figure(value: Double(decisions) / elapsed.seconds, unit: .decisionsPerSecond))
    }

    private func measurePython(python: String, script: String, _ name: String, into table: inout BenchTable) async -> Cell {
        do {
            let output = try await Tools.run(python, [script, name, String(format: "%.1f", options.rulesTime.seconds)])
            guard let line = output.split(separator: "\n").last, let data = String(line).data(using: .utf8),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let perSecond = json["perSecond"] as? Double, let result = json["result"] as? Bool
            else {
                table.notes.append("cel-python \(name): unreadable output: \(output.suffix(300))")
                return .unavailable("failed")
            }
            guard result else {
                table.notes.append("cel-python \(name): the expression evaluated to false")
                return .unavailable("denied")
            }
            return .measured(Figure(value: perSecond, unit: .decisionsPerSecond))
        } catch {
            table.notes.append("cel-python \(name): \(error)")
            return .unavailable("failed")
        }
    }
}
