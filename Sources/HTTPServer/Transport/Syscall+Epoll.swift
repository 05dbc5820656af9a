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

/// `epoll_create1`, `epoll_ctl`, `epoll_wait` and `eventfd`, bound at run time.
///
/// Swift's `Glibc` module does not import `<sys/epoll.h>` or `<sys/eventfd.h>`, and this target
/// may depend only on Glibc, Foundation, Dispatch and CNGHTTP2. So the four libc entry points
/// are looked up once with `dlsym` and `struct epoll_event` is encoded by hand (it is packed —
/// 12 bytes — on x86, 16 bytes elsewhere; kernel ABI, `<bits/epoll.h>`). A system-library shim
/// for these headers would replace this file without touching its callers.
private struct EpollBinding: @unchecked Sendable {
    // @unchecked Sendable: immutable after `init`; C function pointers into libc, callable from any thread.
    typealias Create1 = @convention(c) (Int32) -> Int32
    typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    typealias EventFD = @convention(c) (UInt32, Int32) -> Int32

    let create1: Create1
    let control: Control
    let wait: Wait
    let eventfd: EventFD

    #if arch(x86_64) || arch(i386)
        static let eventStride = 12
        static let dataOffset = 4
    #else
        static let eventStride = 16
        static let dataOffset = 8
    #endif

    static let shared: EpollBinding? = {
        guard let libc = dlopen(nil, RTLD_NOW),
            let create1 = dlsym(libc, "epoll_create1"), let control = dlsym(libc, "epoll_ctl"),
            let wait = dlsym(libc, "epoll_wait"), let eventfd = dlsym(libc, "eventfd")
        else { return nil }
        return EpollBinding(
            create1: unsafeBitCast(create1, to: Create1.self), control: unsafeBitCast(control, to: Control.self),
            wait: unsafeBitCast(wait, to: Wait.self), eventfd: unsafeBitCast(eventfd, to: EventFD.self))
    }()
}

extension Syscall {
    private static func epoll() throws(HTTPServerError) -> EpollBinding {
        guard let binding = EpollBinding.shared else {
            throw .unsupportedPlatform("epoll_create1/epoll_ctl/epoll_wait/eventfd not found in libc")
        }
        return binding
    }

    /// Creates a close-on-exec epoll instance.
    /// - Throws: ``HTTPServerError/unsupportedPlatform(_:)`` without epoll,
    ///   ``HTTPServerError/systemCallFailed(call:errno:reason:)`` when out of descriptors.
    static func epollCreate() throws(HTTPServerError) -> Int32 {
        let fd = try epoll().create1(O_CLOEXEC)
        guard fd >= 0 else { throw .systemCallFailed(call: "epoll_create1", errno: errno, reason: describe(errno)) }
        return fd
    }

    /// Creates a non-blocking, close-on-exec eventfd used to wake the event loop.
    /// - Throws: as ``epollCreate()``.
    static func eventFDCreate() throws(HTTPServerError) -> Int32 {
        let fd = try epoll().eventfd(0, O_NONBLOCK | O_CLOEXEC)
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
        guard let binding = EpollBinding.shared else { preconditionFailure("epoll used before epollCreate") }
        var event = [UInt8](repeating: 0, count: 16)
        let status = event.withUnsafeMutableBytes { raw -> Int32 in
            raw.storeBytes(of: events.rawValue, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: token, toByteOffset: EpollBinding.dataOffset, as: UInt64.self)
            return binding.control(epollFD, operation.rawValue, fd, raw.baseAddress)
        }
        if status == 0 { return true }
        let error = errno
        if error == ENOMEM || error == ENOSPC { return false }
        preconditionFailure("epoll_ctl(\(operation)) failed with errno \(error) (\(describe(error))): transport bug")
    }

    /// Waits up to `timeoutMilliseconds` (−1 = forever) for readiness and fills `ready`.
    ///
    /// `scratch` must hold `capacity × 16` bytes; `EINTR` returns with no events.
    static func epollWait(
        _ epollFD: Int32, scratch: UnsafeMutableRawBufferPointer, into ready: inout [EpollReadiness],
        timeoutMilliseconds: Int32
    ) {
        guard let binding = EpollBinding.shared else { preconditionFailure("epoll used before epollCreate") }
        ready.removeAll(keepingCapacity: true)
        let capacity = Int32(scratch.count / EpollBinding.eventStride)
        let count = binding.wait(epollFD, scratch.baseAddress, capacity, timeoutMilliseconds)
        guard count > 0 else {
            if count < 0, errno != EINTR { preconditionFailure("epoll_wait failed with errno \(errno): transport bug") }
            return
        }
        for index in 0..<Int(count) {
            let base = index * EpollBinding.eventStride
            let events = scratch.loadUnaligned(fromByteOffset: base, as: UInt32.self)
            let token = scratch.loadUnaligned(fromByteOffset: base + EpollBinding.dataOffset, as: UInt64.self)
            ready.append(EpollReadiness(token: token, events: EpollEvents(rawValue: events)))
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
