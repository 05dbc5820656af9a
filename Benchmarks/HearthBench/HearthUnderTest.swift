import Foundation
import Hearth

/// Hearth started in-process, the way `hearth start` runs it: SQLite store in a scratch file
/// (`synchronous=FULL`, the default) or `--in-memory` (a private temporary SQLite file with
/// `synchronous=OFF`), no rules file (open rules; the load uses `Bearer owner` anyway),
/// request log off, Firestore on an ephemeral loopback port; optionally a `firestore.indexes.json`.
final class HearthUnderTest: Sendable {
    /// The running app.
    let app: HearthApp
    /// `http://127.0.0.1:<port>`.
    let baseURL: String

    /// Writes a `firebase.json` in `directory` (naming `indexes`, written as
    /// `firestore.indexes.json`, when given), opens the store there and starts serving.
    /// - Throws: `BenchError.childFailed` when Hearth cannot start.
    init(directory: URL, inMemory: Bool = false, indexes: String? = nil) async throws(BenchError) {
        let dir = directory.appendingPathComponent(inMemory ? "hearth-in-memory" : "hearth")
        var options = StartOptions()
        options.project = "bench"
        options.configPath = dir.appendingPathComponent("firebase.json").path
        options.dataPath = dir.appendingPathComponent("firestore.sqlite").path
        options.host = "127.0.0.1"
        // Every port ephemeral: the SQLite and in-memory servers run at the same time, and a
        // fixed default (Functions 5001, Auth 9099, hub 4400) would refuse the second.
        options.firestorePort = 0
        options.functionsPort = 0
        options.authPort = 0
        options.hubPort = 0
        options.quiet = true
        options.inMemory = inMemory
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            var config = "{}"
            if let indexes {
                try Data(indexes.utf8).write(to: dir.appendingPathComponent("firestore.indexes.json"))
                config = #"{"firestore":{"indexes":"firestore.indexes.json"}}"#
            }
            try Data(config.utf8).write(to: dir.appendingPathComponent("firebase.json"))
            app = try HearthApp(options: options)
            let ports = try await app.start()
            baseURL = "http://127.0.0.1:\(ports.firestore)"
        } catch {
            throw .childFailed("Hearth: cannot start: \(error)")
        }
    }

    /// Stops serving and closes the store.
    func stop() async { await app.stop() }
}
