import CLinux
import Glibc

/// Starts an operating-system thread of its own (not one of Swift's cooperative pool) for work
/// that blocks: an event loop, a `waitpid`.
///
/// A thin layer over POSIX threads, so that the server needs no more of Foundation than its
/// essentials (Foundation's `Thread` would load the whole of Foundation and ICU, megabytes of
/// resident memory for one class). Source: POSIX `pthread_create`; Linux prctl(2) `PR_SET_NAME`.
public enum DetachedThread {
    /// Runs `body` on a new detached thread named `name` (Linux keeps the first 15 bytes; the
    /// name shows in `top -H` and `perf`).
    ///
    /// Stops the process with a message when the system refuses a thread (`EAGAIN`: the limit
    /// of threads or memory is reached), as Foundation's `Thread.start` does.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        defer { pthread_attr_destroy(&attributes) }
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            _ = hearth_set_thread_name(start.name)
            start.body()
            return nil
        }, box)
        if status != 0 {
            Unmanaged<Start>.fromOpaque(box).release()
            fatalError("pthread_create failed for thread \(name): error \(status)")
        }
    }

    private final class Start: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
