import Foundation

/// One measured number with its unit.
struct Figure: Sendable, Codable, Equatable {
    /// What the number counts.
    enum Unit: String, Sendable, Codable {
        /// Requests answered per second (HTTP, all connections together).
        case requestsPerSecond = "req/s"
        /// Rules decisions per second on one thread.
        case decisionsPerSecond = "decisions/s"
        /// Milliseconds of latency or wall time.
        case milliseconds = "ms"
        /// Mebibytes (2^20 bytes) of memory, e.g. a server's resident set.
        case mebibytes = "MiB"
        /// Documents (or rows) written per second.
        case documentsPerSecond = "docs/s"
        /// Things counted, e.g. sessions that reached CURRENT.
        case count

        /// True when a larger value is better (rates); false for times and memory.
        var higherIsBetter: Bool { self != .milliseconds && self != .mebibytes }
    }

    /// The value in `unit`.
    var value: Double
    /// The unit of `value`.
    var unit: Unit

    /// A time as milliseconds.
    static func time(_ d: Duration) -> Figure { Figure(value: d.milliseconds, unit: .milliseconds) }

    /// `12,345 req/s`, `1.23 ms`, `0.041 ms`, `1.52 s`, `184.3 MiB`.
    var text: String {
        switch unit {
        case .mebibytes:
            return value >= 10 ? String(format: "%.1f MiB", value) : String(format: "%.2f MiB", value)
        case .milliseconds:
            if value >= 1000 { return String(format: "%.2f s", value / 1000) }
            if value >= 10 { return String(format: "%.1f ms", value) }
            if value >= 0.1 { return String(format: "%.2f ms", value) }
            return String(format: "%.3f ms", value)
        case .count:
            return Int(value.rounded()).formatted(.number.grouping(.automatic))
        case .requestsPerSecond, .decisionsPerSecond, .documentsPerSecond:
            let rounded = value >= 100 ? Int(value.rounded()).formatted(.number.grouping(.automatic)) : String(format: "%.1f", value)
            let suffix = unit == .requestsPerSecond ? "req/s" : unit == .documentsPerSecond ? "docs/s" : "/s"
            return "\(rounded) \(suffix)"
        }
    }
}

/// One cell of a report table: a figure, or why there is none.
enum Cell: Sendable, Codable, Equatable {
    /// A figure measured in this run.
    case measured(Figure)
    /// No figure; the text says why (`failed`, `not available (gcloud not installed)`, …).
    case unavailable(String)

    /// The figure, if measured.
    var figure: Figure? {
        if case .measured(let f) = self { return f }
        return nil
    }

    /// The text printed in the table.
    var text: String {
        switch self {
        case .measured(let f): f.text
        case .unavailable(let why): why
        }
    }

    /// `hearth / other` when both are measured in one unit, else nil.
    static func ratio(_ hearth: Cell, _ other: Cell) -> Double? {
        guard let h = hearth.figure, let o = other.figure, h.unit == o.unit, o.value > 0 else { return nil }
        return h.value / o.value
    }

    private enum CodingKeys: String, CodingKey { case value, unit, unavailable }

    /// Encodes `{"value":…,"unit":…}` or `{"unavailable":"…"}`.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .measured(let f):
            try c.encode(f.value, forKey: .value)
            try c.encode(f.unit, forKey: .unit)
        case .unavailable(let why):
            try c.encode(why, forKey: .unavailable)
        }
    }

    /// Decodes what `encode(to:)` writes.
    /// - Throws: `DecodingError` for any other shape.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let why = try c.decodeIfPresent(String.self, forKey: .unavailable) {
            self = .unavailable(why)
        } else {
            self = .measured(Figure(value: try c.decode(Double.self, forKey: .value), unit: try c.decode(Figure.Unit.self, forKey: .unit)))
        }
    }
}

extension Duration {
    /// The duration in (fractional) milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15
    }

    /// The duration in (fractional) seconds.
    var seconds: Double { milliseconds / 1e3 }
}
