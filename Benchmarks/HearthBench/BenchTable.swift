import Foundation

/// One line of a report table: a figure for Hearth beside the official emulator and a
/// physical baseline measured in the same run.
struct BenchRow: Sendable, Encodable {
    /// What is measured, e.g. `GetDocument throughput`.
    var figure: String
    /// Hearth's figure.
    var hearth: Cell
    /// The official emulator's figure.
    var emulator: Cell
    /// The physical baseline's figure.
    var baseline: Cell

    /// `hearth / emulator`, nil unless both are measured.
    var hearthOverEmulator: Double? { Cell.ratio(hearth, emulator) }
    /// `hearth / baseline`, nil unless both are measured.
    var hearthOverBaseline: Double? { Cell.ratio(hearth, baseline) }

    private enum CodingKeys: String, CodingKey { case figure, hearth, emulator, baseline, hearthOverEmulator, hearthOverBaseline }

    /// Encodes the cells and both ratios.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(figure, forKey: .figure)
        try c.encode(hearth, forKey: .hearth)
        try c.encode(emulator, forKey: .emulator)
        try c.encode(baseline, forKey: .baseline)
        try c.encodeIfPresent(hearthOverEmulator, forKey: .hearthOverEmulator)
        try c.encodeIfPresent(hearthOverBaseline, forKey: .hearthOverBaseline)
    }
}

/// One section of the report: a titled table plus notes saying what each column ran.
struct BenchTable: Sendable, Encodable {
    /// E.g. `Issue 2 — REST over HTTP/1.1 keep-alive`.
    var title: String
    /// What the baseline column is, e.g. `nginx (same bytes)`.
    var baselineName: String
    /// What the emulator column is (normally `official emulator`).
    var emulatorName = "official emulator"
    /// The measured lines.
    var rows: [BenchRow] = []
    /// Free text printed under the table: set-up, caveats, derived ratios.
    var notes: [String] = []

    /// The table as fixed-width text: figure | Hearth | emulator | baseline | Hearth/emulator | Hearth/baseline.
    var rendered: String {
        let header = ["figure", "Hearth", emulatorName, baselineName, "Hearth/emulator", "Hearth/baseline"]
        var lines: [[String]] = [header]
        for r in rows {
            lines.append([r.figure, r.hearth.text, r.emulator.text, r.baseline.text, Self.ratioText(r.hearthOverEmulator), Self.ratioText(r.hearthOverBaseline)])
        }
        var widths = header.map { _ in 0 }
        for l in lines { for (i, c) in l.enumerated() { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                let pad = String(repeating: " ", count: widths[i] - c.count)
                return i == 0 ? c + pad : pad + c
            }.joined(separator: " | ")
        }
        var out = "== \(title) ==\n" + line(header) + "\n"
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-") + "\n"
        for l in lines.dropFirst() { out += line(l) + "\n" }
        for n in notes { out += "  * \(n)\n" }
        return out
    }

    /// `2.41×`, `0.037×`, or `—`.
    static func ratioText(_ r: Double?) -> String {
        guard let r else { return "—" }
        if r >= 10 { return String(format: "%.0f×", r) }
        if r >= 0.1 { return String(format: "%.2f×", r) }
        return String(format: "%.3f×", r)
    }
}
