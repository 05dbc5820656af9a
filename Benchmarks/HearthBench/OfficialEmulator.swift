import Foundation

/// Google's Cloud Firestore emulator (the JVM `gcloud emulators firestore start` launches),
/// started on an ephemeral loopback port for the run and stopped by killing its process group.
final class OfficialEmulator: Sendable {
    /// The `gcloud` launcher and, below it in the same process group, the JVM.
    let child: ChildProcess
    /// `http://127.0.0.1:<port>`.
    let baseURL: String
    /// Seconds from launch until `GET /` answered `Ok`.
    let startup: Duration

    /// Starts the emulator and waits (up to 90 s) until `GET /` answers `Ok`.
    /// - Throws: `BenchError.missingTool` without `gcloud`; `.childFailed` when it does not come up.
    init(directory: URL) async throws(BenchError) {
        guard let gcloud = Tools.find("gcloud") else { throw .missingTool("not available (gcloud not installed)") }
        let port = try LoopbackPort.free()
        baseURL = "http://127.0.0.1:\(port)"
        let began = ContinuousClock.now
        // No setsid needed: Foundation's Process already starts the child in its own process
        // group (ChildProcess checks), which is what `setsid` would give.
        child = try ChildProcess(
            name: "official emulator", executable: gcloud,
            arguments: ["emulators", "firestore", "start", "--host-port=127.0.0.1:\(port)"],
            outputFile: directory.appendingPathComponent("emulator.log"))
        let root = baseURL + "/"
        do {
            try await child.waitUntilReady(timeout: .seconds(90)) {
                guard let r = try? await SimpleHTTP.send("GET", root, timeout: .seconds(1)) else { return false }
                return r.status == 200 && r.text.hasPrefix("Ok")
            }
        } catch {
            await child.stop()
            throw error
        }
        startup = ContinuousClock.now - began
    }

    /// Kills the emulator's process group (SIGTERM, then SIGKILL).
    func stop() async { await child.stop() }
}
