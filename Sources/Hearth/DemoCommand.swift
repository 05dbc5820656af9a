import HearthDemo

/// `hearth demo [--config firebase.json] [--project ID] [--keep]`: shows the app's backend at
/// work without a phone.
///
/// Starts Hearth in-process, in memory, with every emulator on an ephemeral port; plays
/// `DemoScenario` (the app's traffic for eight people around Alexanderplatz) over HTTP to
/// the bound ports only; prints the `DemoReport`; stops. With `--keep` the emulators keep
/// running after the report (ports printed) until SIGINT/SIGTERM, for poking at with curl.
/// Exit status 0 when the story came out as specified, 1 when the report lists surprises.
public enum DemoCommand {
    /// Runs the command with `arguments` (everything after `demo`).
    /// - Returns: the exit status.
    /// - Throws: `ConfigError` for bad arguments or configuration; `DemoError` when a step the
    ///   app relies on fails; errors of `HearthApp` when an emulator cannot start.
    public static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try DemoOptions.parse(arguments)
        let app = try HearthApp(options: options.startOptions)
        if app.config.rulesFile == nil {
            HearthLog.error("hearth demo: no firestore.rules in firebase.json: client writes are not checked")
        }
        let ports = try await app.start()
        let report: DemoReport
        do {
            let host = ExecCommand.connectHost(app.config.firestore.host)
            report = try await DemoScenario(host: host, ports: ports, project: app.project).play()
        } catch {
            await app.stop()
            throw error
        }
        HearthLog.info("")
        HearthLog.info(report.text)
        if options.keep {
            HearthLog.info("")
            HearthLog.info(
                "hearth demo: still running (firestore \(ports.firestore), functions \(ports.functions ?? 0), "
                    + "auth \(ports.auth ?? 0), hub \(ports.hub ?? 0)); Ctrl-C stops it")
            await SignalWaiter.waitForTermination()
        }
        await app.stop()
        return report.surprises.isEmpty ? 0 : 1
    }
}
