import CLinux
import Glibc

/// Readiness events as reported by epoll (`EPOLLIN`, `EPOLLOUT`, `EPOLLERR`, `EPOLLHUP`).
struct EpollEvents: OptionSet, Sendable {
    /// The `epoll_event.events` bits.
    let rawValue: UInt32
    /// `EPOLLIN`: bytes (or end of stream) to read, or a connection to accept.
    static let readable = EpollEvents(rawValue: 0x001)
    /// `EPOLLOUT`: room in the send buffer.
    static let writable = EpollEvents(rawValue: 0x004)
    /// `EPOLLERR`: a socket error; always reported.
    static let error = EpollEvents(rawValue: 0x008)
    /// `EPOLLHUP`: both directions are shut down; always reported.
    static let hangup = EpollEvents(rawValue: 0x010)
}

/// One ready descriptor from ``Syscall/epollWait(_:into:timeoutMilliseconds:)``.
struct EpollReadiness: Sendable {
    /// The registration token given to ``Syscall/epollControl(_:_:fd:token:events:)``.
    var token: UInt64
    /// What is ready.
    var events: EpollEvents
}

/// Operations of `epoll_ctl(2)`.
enum EpollOperation: Int32, Sendable {
    /// `EPOLL_CTL_ADD`.
    case add = 1
    /// `EPOLL_CTL_DEL`.
    case delete = 2
    /// `EPOLL_CTL_MOD`.
    case modify = 3
}

extension Syscall {
    /// Creates a close-on-exec epoll instance.
    /// - Throws: ``HTTPServerError/systemCallFailed(call:errno:reason:)`` when out of descriptors.
    static func epollCreate() throws(HTTPServerError) -> Int32 {
        let fd = CLinux.epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw .systemCallFailed(call: "epoll_create1", errno: errno, reason: describe(errno)) }
        return fd
    }

    /// Creates a non-blocking, close-on-exec eventfd used to wake the event loop.
    /// - Throws: as ``epollCreate()``.
    static func eventFDCreate() throws(HTTPServerError) -> Int32 {
        let fd = CLinux.eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw .systemCallFailed(call: "eventfd", errno: errno, reason: describe(errno)) }
        return fd
    }

    /// Adds, modifies or removes the registration of `fd` (level-triggered).
    ///
    /// `token` comes back in ``EpollReadiness/token``. Failures are transport bugs and trap,
    /// except `ENOMEM`/`ENOSPC` on `.add`, reported as `false` so the caller can drop the connection.
    @discardableResult
    static func epollControl(
        _ epollFD: Int32, _ operation: EpollOperation, fd: Int32, token: UInt64, events: EpollEvents
    ) -> Bool {
        var event = epoll_event()
        event.events = events.rawValue
        event.data.u64 = token
        if CLinux.epoll_ctl(epollFD, operation.rawValue, fd, &event) == 0 { return true }
        let error = errno
        if error == ENOMEM || error == ENOSPC { return false }
        preconditionFailure("epoll_ctl(\(operation)) failed with errno \(error) (\(describe(error))): transport bug")
    }

    /// Size of one `struct epoll_event` (packed on x86: 12 bytes), for sizing `scratch`.
    static let epollEventStride = MemoryLayout<epoll_event>.stride

    /// Waits up to `timeoutMilliseconds` (−1 = forever) for readiness and fills `ready`.
    ///
    /// `scratch` must hold a whole number of `epoll_event`s; `EINTR` returns with no events.
    static func epollWait(
        _ epollFD: Int32, scratch: UnsafeMutableRawBufferPointer, into ready: inout [EpollReadiness],
        timeoutMilliseconds: Int32
    ) {
        ready.removeAll(keepingCapacity: true)
        let capacity = scratch.count / epollEventStride
        guard let base = scratch.baseAddress, capacity > 0 else { return }
        let events = base.bindMemory(to: epoll_event.self, capacity: capacity)
        let count = CLinux.epoll_wait(epollFD, events, Int32(capacity), timeoutMilliseconds)
        guard count > 0 else {
            if count < 0, errno != EINTR { preconditionFailure("epoll_wait failed with errno \(errno): transport bug") }
            return
        }
        for index in 0..<Int(count) {
            let event = events[index]
            ready.append(EpollReadiness(token: event.data.u64, events: EpollEvents(rawValue: event.events)))
        }
    }

    /// Adds 1 to the eventfd counter, waking a loop blocked in `epoll_wait`.
    static func eventFDSignal(_ fd: Int32) {
        var one: UInt64 = 1
        while Glibc.write(fd, &one, 8) < 0 {
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN { return }  // Counter saturated: the loop is already due to wake.
            preconditionFailure("eventfd write failed with errno \(error): transport bug")
        }
    }

    /// Resets the eventfd counter to zero.
    static func eventFDDrain(_ fd: Int32) {
        var value: UInt64 = 0
        while Glibc.read(fd, &value, 8) < 0 && errno == EINTR {}
    }
}
