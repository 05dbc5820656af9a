import Dispatch
import Foundation

/// Waits for SIGINT or SIGTERM, the signals that stop `hearth start` cleanly.
enum SignalWaiter {
    /// Suspends until the process receives SIGINT or SIGTERM.
    static func waitForTermination() async {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let queue = DispatchQueue(label: "hearth.signals")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = OnceFlag()
            var sources: [DispatchSourceSignal] = []
            for sig in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
                source.setEventHandler {
                    if once.fire() { continuation.resume() }
                }
                source.resume()
                sources.append(source)
            }
            // The sources must outlive this scope: keep them for the process lifetime.
            SignalSources.keep(sources)
        }
    }
}

import Synchronization

/// A flag that can be fired once.
final class OnceFlag: Sendable {
    private let fired = Atomic<Bool>(false)
    /// True the first time only.
    func fire() -> Bool { fired.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged }
}

/// Keeps signal sources alive for the process lifetime.
enum SignalSources {
    /// Written once per `waitForTermination` call from the continuation body and never read:
    /// it only holds references so the sources are not cancelled by deallocation.
    nonisolated(unsafe) private static var held: [DispatchSourceSignal] = []
    static func keep(_ s: [DispatchSourceSignal]) { held += s }
}
