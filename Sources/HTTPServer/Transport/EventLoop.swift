import FoundationEssentials
import Synchronization

/// Something registered with an ``EventLoop`` that reacts to readiness of one descriptor.
///
/// Called only on the loop thread.
protocol EventLoopSource: AnyObject {
    /// Handles readiness of the source's descriptor.
    func handle(_ events: EpollEvents)
}

/// One thread multiplexing many non-blocking descriptors with level-triggered epoll.
///
/// Work from other threads (handler results, HTTP/2 writes, shutdown) enters through
/// ``execute(_:)``: a locked queue plus an eventfd wakeup. Registered sources, the tick callback
/// and every closure passed to `execute` run on the loop thread, one at a time, so state they
/// touch needs no further locking.
final class EventLoop: @unchecked Sendable {
    // @unchecked Sendable: thread confinement, not a lock — every mutable property except
    // `inbox` is touched only by the loop thread: in `run()` and in methods documented "loop
    // thread only", which are called from sources, the tick callback or closures submitted with
    // `execute` — all of which `run()` invokes on that thread.
    private let epollFD: Int32
    private let wakeFD: Int32

    /// Work submitted from other threads, and whether the loop has been woken for it.
    private struct Inbox {
        var queued: [@Sendable () -> Void] = []
        var wakePending = false
        var stopped = false
    }

    private let inbox = Mutex(Inbox())

    private var sources: [UInt64: any EventLoopSource] = [:]
    private var nextToken: UInt64 = 1
    private var running = true
    private let tickInterval: Duration

    /// Called every `tickInterval` on the loop thread (timeouts are checked there). Set it before
    /// ``start(name:onExit:)``; afterwards loop thread only.
    var onTick: () -> Void = {}

    /// A 64 KiB scratch buffer sources read into; loop thread only.
    let readBuffer: UnsafeMutableRawBufferPointer

    private static let wakeToken: UInt64 = 0
    private static let maxEventsPerWait = 256

    /// Creates the epoll instance and wakeup eventfd; nothing runs until ``start(name:onExit:)``.
    ///
    /// Until `start`, the creating thread may call the "loop thread only" methods: the loop
    /// thread does not exist yet, and starting it orders those calls before everything it does.
    /// - Parameter tickInterval: how often ``onTick`` runs.
    /// - Throws: ``HTTPServerError`` if epoll or eventfd cannot be created.
    init(tickInterval: Duration) throws(HTTPServerError) {
        epollFD = try Syscall.epollCreate()
        do {
            wakeFD = try Syscall.eventFDCreate()
        } catch {
            Syscall.close(epollFD)
            throw error
        }
        self.tickInterval = tickInterval
        readBuffer = .allocate(byteCount: 64 << 10, alignment: 16)
        Syscall.epollControl(epollFD, .add, fd: wakeFD, token: Self.wakeToken, events: .readable)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Starts the loop thread; `onExit` runs on it after the loop stopped and closed its descriptors.
    func start(name: String, onExit: @escaping @Sendable () -> Void) {
        DetachedThread.start(name: name) { [self] in
            run()
            onExit()
        }
    }

    /// Runs `work` on the loop thread soon, after the events currently being handled.
    ///
    /// Safe from any thread. Closures run in submission order.
    /// - Returns: `false` if the loop has stopped; `work` is then dropped and never runs.
    @discardableResult
    func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopped else { return false }
            inbox.queued.append(work)
            if !inbox.wakePending {
                inbox.wakePending = true
                // Under the lock: the loop closes `wakeFD` only after setting `stopped` under it.
                Syscall.eventFDSignal(wakeFD)
            }
            return true
        }
    }

    /// Registers `fd` for `events` and routes its readiness to `source`; loop thread only.
    /// - Returns: the registration token, or `nil` if the kernel refused (out of memory).
    func register(fd: Int32, events: EpollEvents, source: any EventLoopSource) -> UInt64? {
        let token = nextToken
        nextToken += 1
        guard Syscall.epollControl(epollFD, .add, fd: fd, token: token, events: events) else { return nil }
        sources[token] = source
        return token
    }

    /// Changes the events `fd` is watched for; loop thread only.
    func reregister(fd: Int32, token: UInt64, events: EpollEvents) {
        Syscall.epollControl(epollFD, .modify, fd: fd, token: token, events: events)
    }

    /// Stops watching `fd` and forgets its source; call before closing `fd`. Loop thread only.
    func deregister(fd: Int32, token: UInt64) {
        Syscall.epollControl(epollFD, .delete, fd: fd, token: token, events: [])
        sources[token] = nil
    }

    /// Makes ``run()`` return after the current iteration; loop thread only.
    func stop() {
        running = false
    }

    private func run() {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.maxEventsPerWait * Syscall.epollEventStride, alignment: 16)
        defer { scratch.deallocate() }
        var ready: [EpollReadiness] = []
        ready.reserveCapacity(Self.maxEventsPerWait)
        let clock = ContinuousClock()
        var nextTick = clock.now.advanced(by: tickInterval)
        while running {
            let untilTick = clock.now.duration(to: nextTick)
            let timeout = Int32(min(max(untilTick.milliseconds, 0), 60_000).rounded(.up))
            Syscall.epollWait(epollFD, scratch: scratch, into: &ready, timeoutMilliseconds: timeout)
            for readiness in ready {
                if readiness.token == Self.wakeToken {
                    runQueued()
                } else {
                    sources[readiness.token]?.handle(readiness.events)
                }
            }
            if clock.now >= nextTick {
                onTick()
                nextTick = clock.now.advanced(by: tickInterval)
            }
        }
        inbox.withLock { inbox in
            inbox.stopped = true
            inbox.queued = []
        }
        sources = [:]
        Syscall.close(wakeFD)
        Syscall.close(epollFD)
    }

    private func runQueued() {
        Syscall.eventFDDrain(wakeFD)
        var work: [@Sendable () -> Void] = []
        inbox.withLock { inbox in
            swap(&work, &inbox.queued)
            inbox.wakePending = false
        }
        for item in work { item() }
    }
}

extension Duration {
    /// This duration in milliseconds, e.g. `.microseconds(1500)` → `1.5`.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
