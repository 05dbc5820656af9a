import Dispatch
import FirestoreModel

extension FirestoreEngine {
    /// Runs `body` on one of the store's reader threads and waits for it without a thread:
    /// for reads of unbounded length (queries, listings), which would otherwise hold a thread
    /// of Swift's cooperative pool for the length of their scan.
    /// - Throws: what `body` throws.
    public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws(FirestoreError) -> T) async throws(FirestoreError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, FirestoreError>, Never>) in
            Self.readerQueue.async {
                do throws(FirestoreError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// The reader threads: a concurrent queue at its own quality of service, so its threads
    /// are not those of the cooperative pool (default QoS) nor the writer's.
    static let readerQueue = DispatchQueue(label: "hearth.firestore.readers", qos: .userInitiated, attributes: .concurrent)
}
