import FoundationEssentials
import Glibc
import Synchronization

/// Hearth's console: one line per event, written whole so concurrent lines never interleave.
public enum HearthLog {
    private static let lock = Mutex(())

    /// Writes `line` and a newline to standard output.
    public static func info(_ line: String) {
        write(line + "\n", fd: 1)
    }

    /// Writes `text` to standard output as it is (no newline added): a command's output.
    public static func output(_ text: String) {
        write(text, fd: 1)
    }

    /// Writes `line` and a newline to standard error.
    public static func error(_ line: String) {
        write(line + "\n", fd: 2)
    }

    /// Writes all of `text` with write(2) under the lock (no stdio buffering to flush).
    private static func write(_ text: String, fd: Int32) {
        lock.withLock { _ in
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
            bytes.removeAll()
        }
    }
}
