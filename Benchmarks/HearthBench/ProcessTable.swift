import Foundation

/// Finding a child server's process in Linux's `/proc` (proc(5)), so that the `listen` load
/// client can read its resident set from `/proc/<pid>/status`.
///
/// `ChildProcess` keeps its `Process` private; the servers are found by what their command
/// lines uniquely contain (the run's scratch path, the ephemeral port). Outside Linux every
/// lookup returns nil and the report says the figure is unavailable.
enum ProcessTable {
    /// The ids of every process currently listed in `/proc`.
    static func allPIDs() -> [pid_t] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return names.compactMap { pid_t($0) }
    }

    /// The command-line arguments of `pid` (`/proc/<pid>/cmdline`, NUL-separated), or nil.
    static func arguments(_ pid: pid_t) -> [String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        return data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The process group of `pid`: field 5 of `/proc/<pid>/stat`, counted after the `)` that
    /// closes the command name (which may itself hold spaces and parentheses).
    static func processGroup(_ pid: pid_t) -> pid_t? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        // After ")": state, ppid, pgrp, …
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 2 else { return nil }
        return pid_t(fields[2])
    }

    /// The command name of `pid` (`/proc/<pid>/comm`, at most 15 bytes), or nil.
    static func commandName(_ pid: pid_t) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/comm") else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first process whose command line has an argument containing `fragment`, skipping
    /// this benchmark itself.
    static func find(argumentContaining fragment: String) -> pid_t? {
        let me = getpid()
        return allPIDs().first { pid in
            pid != me && (arguments(pid)?.contains { $0.contains(fragment) } ?? false)
        }
    }

    /// The first process in process group `group` whose command name is `name` (the JVM
    /// below the `gcloud` launcher and its shell script).
    static func find(named name: String, inGroup group: pid_t) -> pid_t? {
        allPIDs().first { processGroup($0) == group && commandName($0) == name }
    }
}
