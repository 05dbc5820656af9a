/// The ports the demo talks to: where the emulators of one running Hearth listen, all on the
/// host given to `DemoScenario`. The composition root fills it in from the ports it bound.
public struct DemoPorts: Sendable {
    /// Firestore port (REST v1).
    public var firestore: Int
    /// Functions port (callables, FCM outbox); nil when Functions does not run.
    public var functions: Int?
    /// Auth emulator port; nil when Auth does not run.
    public var auth: Int?
    /// Emulator hub port; nil when the hub does not run.
    public var hub: Int?

    /// Creates the port set; absent emulators are nil.
    public init(firestore: Int, functions: Int?, auth: Int?, hub: Int?) {
        self.firestore = firestore
        self.functions = functions
        self.auth = auth
        self.hub = hub
    }
}
