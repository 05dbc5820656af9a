import HTTPServer

/// The Emulator UI's server and live feed (issue 15): binds `emulators.ui` (default
/// 127.0.0.1:4000); when that port is taken and `--ui-port` did not ask for it, it listens on
/// an ephemeral port instead, as the hub does, and says so.
final class EmulatorUI: Sendable {
    let server: HTTPServer
    let fallback: HTTPServer?
    let events: UIEventHub
    let endpoint: FirebaseConfig.Endpoint

    init(
        endpoint: FirebaseConfig.Endpoint, explicitPort: Bool, handler: EmulatorUIHandler, events: UIEventHub,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.endpoint = endpoint
        self.events = events
        server = HTTPServer(
            configuration: HTTPServerConfiguration.googleShaped(host: endpoint.host, port: endpoint.port), handler: handler,
            log: log)
        fallback =
            explicitPort || endpoint.port == 0
            ? nil
            : HTTPServer(
                configuration: HTTPServerConfiguration.googleShaped(host: endpoint.host, port: 0), handler: handler, log: log)
    }

    /// Binds the port and starts the live feed. - Returns: the bound port.
    /// - Throws: `HTTPServerError` when the port cannot be bound (and no fallback applies).
    func start() throws -> Int {
        let port: Int
        do {
            port = try server.start()
        } catch HTTPServerError.addressInUse(let host, let busy) where fallback != nil {
            HearthLog.info("ui: \(host):\(busy) is in use; the Emulator UI listens on an ephemeral port instead")
            port = try fallback?.start() ?? 0
        }
        events.start()
        return port
    }

    /// Ends the live feed's streams and stops both servers.
    func stop() async {
        events.stop()
        await server.shutdown()
        await fallback?.shutdown()
    }
}
