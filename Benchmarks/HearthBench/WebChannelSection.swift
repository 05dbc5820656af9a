import Foundation

/// Issue 22 item 6: WebChannel, the Firebase JS SDK's browser transport, on Hearth
/// (`hearth start --in-memory` as a child process) and the official emulator, one server at
/// a time, the same client for both (`Benchmarks/webchannel/webchannel_bench.py`):
/// write-to-snapshot latency of the published JS SDK in headless Chromium, default transport
/// and forced long polling; then K raw Listen sessions held open at once and the server's
/// resident set with them.
struct WebChannelSection {
    /// Run settings.
    let options: BenchOptions
    /// Scratch directory of this run.
    let scratch: URL
    /// Progress lines go here (stderr).
    let progress: @Sendable (String) -> Void

    /// Timed writes per transport, after `warmups` unmeasured ones.
    static let writes = 200
    /// See `writes`.
    static let warmups = 10
    /// Listen sessions held open at once (K), and how many are being opened at a time.
    static let sessions = 2_000
    /// See `sessions`.
    static let parallel = 32
    /// The SDK release the page's import map names (the CDN builds import each other by URL).
    static let sdkVersion = "10.11.1"

    /// Where the page's pieces are.
    struct Browser {
        /// `node_modules/firebase`: `firebase-app.js` and `firebase-firestore.js`.
        var sdk: String
        /// The Chromium binary and its chromedriver.
        var chromium: String
        /// See `chromium`.
        var chromedriver: String
    }

    /// A cell's text for a figure that was not measured.
    struct CellText: Error {
        /// E.g. `failed`.
        var text: String
    }

    /// What one server gave.
    struct ServerOutcome {
        /// Why nothing was measured (the server did not start), if so.
        var absent: String?
        /// The browser runs, nil when skipped (no SDK or no Chromium).
        var browser: Result<WebChannelBrowserRun, CellText>?
        /// The sessions run.
        var sessions: Result<WebChannelSessionsRun, CellText>?
        /// Whether the process whose memory is read was found.
        var foundProcess = false
        /// Lines of the server's output that mention an error or an exception.
        var logErrors: [String] = []
    }

    /// Runs the section.
    func run() async -> BenchTable {
        var table = BenchTable(title: "Issue 22 — WebChannel: the JS SDK's browser transport", baselineName: "baseline")
        guard let python = Self.findPython() else {
            table.rows.append(
                BenchRow(
                    figure: "WebChannel", hearth: .unavailable("not measured"), emulator: .unavailable("not measured"),
                    baseline: .unavailable("—")))
            table.notes.append("not measured: no python3 (nor .build/bench-venv, .venv) to run the client.")
            return table
        }
        let browser = Self.findBrowser()
        var skipped: String?
        if case .failure(let why) = browser {
            skipped = why.text
            progress("webchannel: browser latency skipped: \(why.text)")
        }
        let client = PackageRoot.path("Benchmarks/webchannel/webchannel_bench.py")

        progress("webchannel: starting Hearth (release build, --in-memory)")
        let page = try? browser.get()
        let hearth = await measure("Hearth", python: python, client: client, browser: page, into: &table) {
            () throws(BenchError) -> ListenServer in try await ListenServer.hearth(directory: scratch)
        }
        var emulator = ServerOutcome(absent: "skipped (--no-emulator)")
        if options.emulator {
            progress("webchannel: starting the official emulator")
            emulator = await measure("emulator", python: python, client: client, browser: page, into: &table) {
                () throws(BenchError) -> ListenServer in try await ListenServer.emulator(directory: scratch)
            }
        }
        appendRows(hearth: hearth, emulator: emulator, browserSkipped: skipped, to: &table)
        return table
    }

    /// A Python 3 for the client (standard library only): the bench venv, the interop venv, else `python3`.
    static func findPython() -> String? {
        for candidate in [".build/bench-venv/bin/python", ".venv/bin/python"].map(PackageRoot.path)
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return Tools.find("python3")
    }

    /// The SDK (`$HEARTH_JS_SDK`, else `~/.cache/hearth/js-sdk`, holding `node_modules/firebase`
    /// at release `sdkVersion`), Chromium and chromedriver — or why the browser runs are skipped.
    static func findBrowser() -> Result<Browser, CellText> {
        let environment = ProcessInfo.processInfo.environment
        let root =
            environment["HEARTH_JS_SDK"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/hearth/js-sdk").path
        let sdk = URL(fileURLWithPath: root).appendingPathComponent("node_modules/firebase")
        let files = ["firebase-app.js", "firebase-firestore.js"].map { sdk.appendingPathComponent($0).path }
        guard files.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
            let text = "no Firebase JS SDK (node_modules/firebase under $HEARTH_JS_SDK or ~/.cache/hearth/js-sdk)"
            return .failure(CellText(text: text))
        }
        let package = FileManager.default.contents(atPath: sdk.appendingPathComponent("package.json").path)
        let fields = package.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        let version = fields?["version"] as? String
        guard version == sdkVersion else {
            let text = "the Firebase JS SDK found is \(version ?? "unversioned"), not \(sdkVersion)"
            return .failure(CellText(text: text))
        }
        guard let chromium = Tools.find("chromium") ?? Tools.find("chromium-browser"),
            let chromedriver = Tools.find("chromedriver")
        else {
            return .failure(CellText(text: "no chromium and chromedriver on PATH"))
        }
        return .success(Browser(sdk: sdk.path, chromium: chromium, chromedriver: chromedriver))
    }

    /// Starts one server, runs the browser client (if any) and the sessions client against it, stops it.
    private func measure(
        _ label: String, python: String, client: String, browser: Browser?, into table: inout BenchTable,
        start: () async throws(BenchError) -> ListenServer
    ) async -> ServerOutcome {
        var outcome = ServerOutcome()
        let server: ListenServer
        do {
            server = try await start()
        } catch {
            if case .missingTool(let why) = error {
                outcome.absent = why
            } else {
                outcome.absent = "failed"
                table.notes.append("\(label): \(error)")
            }
            return outcome
        }
        outcome.foundProcess = server.pid != nil
        let common = [client, "", "--host", server.host, "--project", "bench", "--label", label]
        if let browser {
            progress("webchannel: \(label), JS SDK in headless Chromium, \(Self.writes) writes per transport")
            var arguments = common
            arguments[1] = "browser"
            arguments += [
                "--sdk", browser.sdk, "--chromium", browser.chromium, "--chromedriver", browser.chromedriver,
                "--writes", String(Self.writes), "--warmups", String(Self.warmups), "--timeout", "150",
                "--driver-log", scratch.appendingPathComponent("chromedriver-\(label).log").path,
            ]
            outcome.browser = await decode(label, python, arguments, timeout: .seconds(400), into: &table)
        }
        progress("webchannel: \(label), \(Self.sessions.formatted()) Listen sessions")
        var arguments = common
        arguments[1] = "sessions"
        arguments += ["--sessions", String(Self.sessions), "--parallel", String(Self.parallel), "--timeout", "120"]
        if let pid = server.pid { arguments += ["--pid", String(pid)] }
        if let stats = server.statsURL { arguments += ["--stats-url", stats] }
        outcome.sessions = await decode(label, python, arguments, timeout: .seconds(300), into: &table)
        outcome.logErrors = server.outputTail(4 << 20).split(separator: "\n").compactMap(Self.logError)
        await server.stop()
        return outcome
    }

    /// What a line of a server's output says went wrong, shortened to count alike lines together:
    /// a Java exception or error with its message (`java.net.SocketException: Connection reset`),
    /// else the line if it says `error`; nil for other lines and for stack frames.
    static func logError(_ line: Substring) -> String? {
        if line.contains("\tat ") { return nil }
        if let m = line.firstMatch(of: /[\w.$]*[a-z](?:Exception|Error)\b(?::.*)?/) {
            return String(m.output.prefix(120))
        }
        return line.lowercased().contains("error") ? String(line.prefix(120)) : nil
    }

    /// Runs the client and decodes the last JSON line it printed.
    private func decode<Run: Decodable>(
        _ label: String, _ python: String, _ arguments: [String], timeout: Duration, into table: inout BenchTable
    ) async -> Result<Run, CellText> {
        do {
            let output = try await ListenLoadClient.runBounded(python, arguments, timeout: timeout)
            guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
                let run = try? JSONDecoder().decode(Run.self, from: Data(line.utf8))
            else {
                table.notes.append("\(label), \(arguments[1]): the client printed no result: \(output.suffix(300))")
                return .failure(CellText(text: "failed"))
            }
            return .success(run)
        } catch {
            table.notes.append("\(label), \(arguments[1]): \(error)")
            return .failure(CellText(text: "failed"))
        }
    }
}
