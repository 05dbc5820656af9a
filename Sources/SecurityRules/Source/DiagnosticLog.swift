/// The findings of one compiler pass, bounded: it records at most
/// `RulesDiagnostic.maxReported` errors and as many warnings, and only counts the rest, so
/// hostile input cannot make a pass hoard (or render) millions of findings. Errors and
/// warnings are capped separately so a flood of warnings never hides that an error occurred.
struct DiagnosticLog: Sendable {
    /// The recorded findings, in the order they were found.
    private(set) var entries: [RulesDiagnostic] = []
    /// Findings counted but not recorded.
    private(set) var suppressed = 0
    private var errors = 0
    private var warnings = 0

    /// Records the finding `make` builds (only built when there is room), or counts it.
    mutating func append(_ severity: RulesDiagnostic.Severity, _ make: () -> RulesDiagnostic) {
        let count = severity == .error ? errors : warnings
        guard count < RulesDiagnostic.maxReported else {
            suppressed += 1
            return
        }
        if severity == .error { errors += 1 } else { warnings += 1 }
        entries.append(make())
    }
}
