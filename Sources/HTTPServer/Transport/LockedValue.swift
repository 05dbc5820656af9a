import Synchronization

/// A value guarded by a lock, for the little state shared across threads outside the loop.
///
/// A class around a ``Mutex`` so that several closures can share one value by reference.
final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Wraps `value`.
    init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result: Sendable, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        try mutex.withLock { value throws(Failure) in try body(&value) }
    }
}
