import Glibc

/// A mutual-exclusion lock taken and released in separate statements, for the store's writer
/// and reader-pool guards (`Mutex` only offers scoped `withLock`). A thin layer over a POSIX
/// mutex, so that the store needs no more of Foundation than its essentials (`NSLock` would
/// load the whole of Foundation). Source: POSIX `pthread_mutex_lock`.
final class ThreadLock: @unchecked Sendable {
    // @unchecked: the mutex lives at a stable address allocated here and is only used
    // through pthread calls, which are thread-safe by definition.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Blocks until the lock is held by the calling thread.
    func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock; only the holding thread may call it.
    func unlock() { pthread_mutex_unlock(mutex) }
}
