import Dispatch
import FoundationEssentials
import Glibc

/// Waits for SIGINT or SIGTERM, the signals that stop `hearth start` cleanly.
///
/// `install()` must run before the server says it is ready, so a signal sent right after
/// "ready" is never lost (or fatal): it is caught and remembered until `waitForTermination()`.
enum SignalWaiter {
    private static let received = Atomic<Bool>(false)
    private static let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)

    /// Catches SIGINT and SIGTERM from now on (and ignores SIGPIPE).
    static func install() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let queue = DispatchQueue(label: "hearth.signals")
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                received.store(true, ordering: .sequentiallyConsistent)
                waiter.withLock { $0?.resume(); $0 = nil }
            }
            source.resume()
            sources.append(source)
        }
        // The sources must outlive this scope: keep them for the process lifetime.
        SignalSources.keep(sources)
    }

    /// Suspends until SIGINT or SIGTERM has been received (returns at once if it already was).
    static func waitForTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiter.withLock { w in
                if received.load(ordering: .sequentiallyConsistent) {
                    continuation.resume()
                } else {
                    w = continuation
                }
            }
        }
    }
}

import Synchronization

/// Keeps signal sources alive for the process lifetime.
enum SignalSources {
    /// Written once per `waitForTermination` call from the continuation body and never read:
    /// it only holds references so the sources are not cancelled by deallocation.
    nonisolated(unsafe) private static var held: [DispatchSourceSignal] = []
    static func keep(_ s: [DispatchSourceSignal]) { held += s }
}
