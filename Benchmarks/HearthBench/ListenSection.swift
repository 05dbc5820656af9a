/// Issue 5: gRPC and Listen — built in parallel; a placeholder until the transport lands.
struct ListenSection {
    /// The placeholder table.
    func run() -> BenchTable {
        var table = BenchTable(title: "Issue 5 — gRPC and Listen", baselineName: "baseline")
        table.emulatorName = "emulator"
        table.rows.append(
            BenchRow(
                figure: "gRPC / Listen", hearth: .unavailable("not yet available"), emulator: .unavailable("not yet available"),
                baseline: .unavailable("not yet available")))
        table.notes.append("not yet available: Hearth serves no gRPC or Listen in this tree.")
        return table
    }
}
