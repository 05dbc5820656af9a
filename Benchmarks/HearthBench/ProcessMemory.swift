import Foundation

/// A child server's memory at one moment, read from Linux's `/proc/<pid>/status` (proc(5)):
/// the resident set and its anonymous and file-backed parts, the peak since the last reset,
/// and the thread count.
///
/// `VmRSS` counts every page mapped into the process, including pages of shared libraries and
/// of memory-mapped files that the kernel's page cache holds anyway (`RssFile`); `RssAnon` is
/// what the process allocated itself (malloc heaps, thread stacks, the JVM heap).
struct ProcessMemory: Sendable, Encodable {
    /// `VmRSS`, KiB.
    var rssKiB: Int
    /// `RssAnon`, KiB.
    var anonKiB: Int
    /// `RssFile`, KiB (shared libraries, the executable, mapped files).
    var fileKiB: Int
    /// `VmHWM`, KiB: the largest `VmRSS` since the process started or `resetPeak` was called.
    var peakKiB: Int
    /// `Threads`.
    var threads: Int

    /// `VmRSS` in MiB.
    var rssMiB: Double { Double(rssKiB) / 1024 }

    /// The figures of `pid` now, or nil when its `/proc` entry cannot be read (not Linux, exited).
    static func read(_ pid: pid_t) -> ProcessMemory? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/status") else { return nil }
        var fields: [Substring: Int] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon]
            guard ["VmRSS", "RssAnon", "RssFile", "VmHWM", "Threads"].contains(key) else { continue }
            let number = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            fields[key] = number
        }
        guard let rss = fields["VmRSS"] else { return nil }
        return ProcessMemory(
            rssKiB: rss, anonKiB: fields["RssAnon"] ?? 0, fileKiB: fields["RssFile"] ?? 0, peakKiB: fields["VmHWM"] ?? rss,
            threads: fields["Threads"] ?? 0)
    }

    /// Resets `VmHWM` of `pid` to its current resident set (writes `5` to
    /// `/proc/<pid>/clear_refs`), so the next `read` gives the peak of what followed.
    /// - Returns: false when the kernel refused (not Linux, not our process).
    @discardableResult
    static func resetPeak(_ pid: pid_t) -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/\(pid)/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// `31.2 MiB (anon 4.1, file 27.1)`: the note form.
    var text: String {
        String(format: "%.1f MiB (anon %.1f, file %.1f)", rssMiB, Double(anonKiB) / 1024, Double(fileKiB) / 1024)
    }
}
