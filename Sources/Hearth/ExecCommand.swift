import FoundationEssentials
import HTTPServer
import Glibc

/// `hearth exec [options] -- <command …>`: the CI entry point, like `firebase emulators:exec`.
///
/// Starts every configured emulator (in memory unless `--data` is given), waits until each port
/// accepts connections, runs the command with the emulator environment of firebase-tools —
/// `FIRESTORE_EMULATOR_HOST`, `FIREBASE_FIRESTORE_EMULATOR_ADDRESS`, `FIREBASE_AUTH_EMULATOR_HOST`
/// (when Auth runs), `FIREBASE_EMULATOR_HUB`, `GCLOUD_PROJECT`, `GOOGLE_CLOUD_PROJECT` — with
/// its standard input, output and error inherited and the directory of this `hearth` first on
/// its `PATH` (so the command can run `hearth indexes check`), then stops Hearth and returns the command's
/// exit status (128 + N when a signal N killed it). Hearth's per-request log is off (`--quiet`)
/// so the command's output stays readable. The command gets default signal dispositions;
/// SIGINT, SIGTERM and SIGHUP sent to Hearth are forwarded to it. Source: docs/reference/firestore-wire.md §2.3.
public enum ExecCommand {
    /// Runs `arguments` (everything after `exec`).
    /// - Returns: the command's exit status.
    /// - Throws: `ConfigError` without a command or when the command is not found; errors of
    ///   `HearthApp` when an emulator cannot start.
    public static func run(_ arguments: [String]) async throws -> Int32 {
        var options = try StartOptions.parse(arguments)
        guard let name = options.rest.first else {
            throw ConfigError("exec needs a command: hearth exec [options] -- <command …>")
        }
        guard let executable = resolveExecutable(name) else { throw ConfigError("exec: command not found: \(name)") }
        if options.dataPath == nil { options.inMemory = true }
        options.quiet = true
        let app = try HearthApp(options: options)
        let ports = try await app.start()
        do {
            var environment = ProcessInfo.processInfo.environment
            for (key, value) in try await emulatorEnvironment(app, ports) { environment[key] = value }
            // `hearth` inside the command is this executable (`… -- sh -c 'pytest && hearth indexes check'`).
            if let dir = Self.executableDirectory() {
                environment["PATH"] = dir + ":" + (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
            }
            let status = try await runProcess(executable, Array(options.rest.dropFirst()), environment)
            await app.stop()
            return status
        } catch {
            await app.stop()
            throw error
        }
    }

    /// The variables the command sees, after checking each port accepts connections.
    /// - Throws: `ConfigError` when a port does not answer within 10 s.
    static func emulatorEnvironment(_ app: HearthApp, _ ports: HearthApp.BoundPorts) async throws -> [String: String] {
        var env: [String: String] = ["GCLOUD_PROJECT": app.project, "GOOGLE_CLOUD_PROJECT": app.project]
        func address(_ host: String, _ port: Int) async throws -> String {
            let h = connectHost(host)
            guard await PortProbe.waitUntilAccepting(host: h, port: port) else {
                throw ConfigError("exec: \(h):\(port) does not accept connections")
            }
            return h.contains(":") ? "[\(h)]:\(port)" : "\(h):\(port)"
        }
        let firestore = try await address(app.config.firestore.host, ports.firestore)
        env["FIRESTORE_EMULATOR_HOST"] = firestore
        env["FIREBASE_FIRESTORE_EMULATOR_ADDRESS"] = firestore
        if let auth = ports.auth { env["FIREBASE_AUTH_EMULATOR_HOST"] = try await address(app.config.auth.host, auth) }
        if let hub = ports.hub { env["FIREBASE_EMULATOR_HUB"] = try await address(app.config.hub.host, hub) }
        return env
    }

    /// A wildcard bind address becomes the loopback address a client can connect to.
    static func connectHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": return "127.0.0.1"
        case "::", "[::]": return "::1"
        default: return host
        }
    }

    /// `name` itself when it contains `/`, else the first executable `PATH` entry with that name.
    static func resolveExecutable(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs the child with inherited standard streams and waits for it.
    ///
    /// The child is spawned with every signal at its default disposition and none blocked
    /// (`posix_spawn` with `SETSIGDEF` + `SETSIGMASK`): Hearth itself blocks SIGINT/SIGTERM/SIGHUP
    /// to take them on its signal thread (`SignalWaiter`), and a child must not inherit that, or
    /// Ctrl-C would not stop it. SIGINT, SIGTERM and SIGHUP sent to Hearth are forwarded to the child; Hearth stops
    /// once the child has exited.
    /// - Returns: its exit status, or 128 + the signal that killed it.
    /// - Throws: `ConfigError` when the process cannot be launched.
    static func runProcess(_ executable: String, _ arguments: [String], _ environment: [String: String]) async throws
        -> Int32
    {
        let pid = try spawn(executable, arguments, environment)
        // The signal thread sends SIGINT/SIGTERM/SIGHUP to the child from now on.
        SignalWaiter.setMode(.forward(pid))
        defer { SignalWaiter.setMode(.terminate) }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            // waitpid blocks: a dedicated thread, not a cooperative one, waits for the child.
            DetachedThread.start(name: "hearth-waitpid") {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let signalled = status & 0x7F
                continuation.resume(returning: signalled != 0 ? 128 + signalled : (status >> 8) & 0xFF)
            }
        }
    }

    /// The directory of the running executable (Linux `/proc/self/exe`), nil when unreadable.
    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// `posix_spawn` of `executable` with default signal dispositions and an empty mask.
    static func spawn(_ executable: String, _ arguments: [String], _ environment: [String: String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, nil, &attributes, argv, envp)
        guard rc == 0 else {
            throw ConfigError("exec: cannot run \(executable): \(String(cString: strerror(rc)))")
        }
        return pid
    }
}
