import FoundationEssentials
import GoogleWire
import Synchronization

/// The emulators running in this process and where they listen — what the hub reports.
///
/// Entries are added as servers bind (`register`), in start order. Source: docs/reference/firestore-wire.md §2.4.
public final class EmulatorRegistry: Sendable {
    /// One running emulator.
    public struct Entry: Sendable, Equatable {
        /// `firestore`, `auth`, `functions`, `hub`, …
        public var name: String
        /// The bound host, e.g. `127.0.0.1`.
        public var host: String
        /// The bound port.
        public var port: Int
    }

    private let entries = Mutex<[Entry]>([])

    /// An empty registry.
    public init() {}

    /// Records (or replaces) the emulator `name`.
    public func register(name: String, host: String, port: Int) {
        entries.withLock { list in
            list.removeAll { $0.name == name }
            list.append(Entry(name: name, host: host, port: port))
        }
    }

    /// The running emulators, in start order.
    public var all: [Entry] { entries.withLock { $0 } }

    /// The entry for `name`.
    public func entry(_ name: String) -> Entry? { all.first { $0.name == name } }

    /// `{name, host, port, pid, listen: [{address, family, port}]}` as firebase-tools' hub
    /// describes an emulator (`family` is `IPv6` for hosts containing `:`).
    static func json(_ e: Entry) -> JSONValue {
        .object([
            .init("name", .string(e.name)), .init("host", .string(e.host)), .init("port", .integer(e.port)),
            .init("pid", .integer(ProcessInfo.processInfo.processIdentifier)),
            .init(
                "listen",
                .array([
                    .object([
                        .init("address", .string(e.host)),
                        .init("family", .string(e.host.contains(":") ? "IPv6" : "IPv4")),
                        .init("port", .integer(e.port)),
                    ])
                ])),
        ])
    }
}
