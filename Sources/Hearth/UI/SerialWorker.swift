import Dispatch

/// Runs blocking jobs (an export writes every document) one at a time on a Dispatch queue of
/// their own, so a long job never holds a thread of Swift's cooperative pool and two never run at once.
final class SerialWorker: Sendable {
    private let queue = DispatchQueue(label: "hearth.serial-worker")

    /// Runs `job` after the jobs before it; returns its result.
    func run<T: Sendable>(_ job: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            queue.async { continuation.resume(returning: Result { try job() }) }
        }
    }
}
