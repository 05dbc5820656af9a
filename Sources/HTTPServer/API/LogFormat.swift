/// How the request log writes figures, shared by the HTTP/1.1 and gRPC request lines.
public enum LogFormat {
    /// `value` milliseconds with one decimal, rounded half away from zero: `12.345` → `"12.3"`
    /// (what `%.1f` gives for the non-negative durations the log writes, without Foundation).
    public static func milliseconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
