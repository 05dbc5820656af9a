import HearthDemo

extension DemoScenario {
    /// A scenario against the emulators of a started `HearthApp` listening on `host`:
    /// `ports` as `HearthApp.start()` returned them, serving `project`.
    public init(host: String, ports: HearthApp.BoundPorts, project: String) {
        self.init(
            host: host, ports: DemoPorts(firestore: ports.firestore, functions: ports.functions, auth: ports.auth, hub: ports.hub),
            project: project)
    }
}
