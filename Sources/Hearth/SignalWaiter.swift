import Glibc
import HTTPServer
import Synchronization

/// Receives SIGINT, SIGTERM and SIGHUP so that no stop signal is ever lost.
///
/// `blockStopSignals()` runs first in `main`, before any thread exists, so every thread
/// inherits a mask that blocks the three signals: a signal sent at any moment — during
/// argument parsing, while the servers bind, right after "ready", during shutdown — stays
/// pending until the one thread that has them unblocked (the signal thread) takes it; its
/// handler writes the number to a pipe that thread reads. Nothing sets them to `SIG_IGN`
/// (which would discard a pending signal), and a thread that does get one (the main thread,
/// whose mask Swift's runtime opens) runs the same handler, so none is fatal or lost. What a
/// taken signal does depends on `mode`:
/// `.terminate` dies by it as the default action would (exit status 128 + N for a shell),
/// `.stop` records it and resumes `waitForTermination()` (a clean stop, exit status 0),
/// `.forward(pid)` sends it to `hearth exec`'s child. Source: POSIX `pthread_sigmask`,
/// `sigaction`, `pipe`; Linux signal(7) "Signal mask and pending signals".
enum SignalWaiter {
    /// What a received stop signal does.
    enum Mode: Sendable, Equatable {
        /// Die by the signal (the default action): commands that never wait for one.
        case terminate
        /// Remember it and wake `waitForTermination()`: `hearth start`, `hearth demo --keep`.
        case stop
        /// Send it to the process `pid` (`hearth exec`'s command).
        case forward(pid_t)
    }

    private struct State {
        var mode: Mode = .terminate
        var received: Int32?
        var waiter: CheckedContinuation<Int32, Never>?
        var started = false
    }

    private static let state = Mutex(State())

    /// SIGINT, SIGTERM, SIGHUP.
    static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The set of `stopSignals`.
    static var stopSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in stopSignals { sigaddset(&set, s) }
        return set
    }

    /// The pipe the signal handler writes each signal number to: [read end, write end].
    nonisolated(unsafe) private static var pipeFDs: [Int32] = [-1, -1]
    /// The write end, read by the handler (set once, before the handler is installed).
    nonisolated(unsafe) private static var writeFD: Int32 = -1

    /// Blocks the stop signals in the calling thread (and so in every thread it creates later),
    /// ignores SIGPIPE, and installs a handler for the stop signals that writes the signal
    /// number to a pipe the signal thread reads. The handler makes the signal never fatal and
    /// never lost, whichever thread the kernel hands it to (the main thread's mask is not
    /// kept: Swift's asynchronous main on Linux leaves it open). Call first thing in `main`.
    static func blockStopSignals() {
        guard writeFD < 0 else { return }
        signal(SIGPIPE, SIG_IGN)
        var set = stopSet
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        pipeFDs = fds
        writeFD = fds[1]
        for s in stopSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                var byte = UInt8(truncatingIfNeeded: sig)
                let saved = errno
                _ = write(SignalWaiter.writeFD, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(s, &action, nil)
        }
    }

    /// Sets what a stop signal does from now on, then starts the signal thread if it is
    /// not running yet (a signal already pending is taken then, under the new mode).
    static func install(_ mode: Mode = .stop) {
        let start = state.withLock { s -> Bool in
            s.mode = mode
            defer { s.started = true }
            return !s.started
        }
        if start { DetachedThread.start(name: "hearth-signals") { loop() } }
    }

    /// Changes what a stop signal does; a signal received under `.stop` stays remembered.
    static func setMode(_ mode: Mode) {
        state.withLock { $0.mode = mode }
    }

    private static func loop() {
        var set = stopSet
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let readFD = pipeFDs[0]
        guard readFD >= 0 else { return }  // no pipe: the stop signals stay blocked and pending
        while true {
            var byte: UInt8 = 0
            let n = read(readFD, &byte, 1)
            guard n == 1 else { continue }
            let sig = Int32(byte)
            let action = state.withLock { s -> Mode in
                if s.mode == .stop {
                    if s.received == nil { s.received = sig }
                    s.waiter?.resume(returning: sig)
                    s.waiter = nil
                }
                return s.mode
            }
            switch action {
            case .stop: break
            case .forward(let pid): kill(pid, sig)
            case .terminate:
                signal(sig, SIG_DFL)
                var one = sigset_t()
                sigemptyset(&one)
                sigaddset(&one, sig)
                pthread_sigmask(SIG_UNBLOCK, &one, nil)
                raise(sig)
                _exit(128 + sig)
            }
        }
    }

    /// Suspends until a stop signal has been received in `.stop` mode (returns at once if one
    /// already was).
    /// - Returns: the signal number.
    @discardableResult
    static func waitForTermination() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            state.withLock { s in
                if let sig = s.received {
                    continuation.resume(returning: sig)
                } else {
                    s.waiter = continuation
                }
            }
        }
    }

    /// The signal received in `.stop` mode so far, nil when none was.
    static var received: Int32? { state.withLock { $0.received } }
}
