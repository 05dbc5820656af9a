import Foundation

/// nginx on loopback serving exactly the bytes Hearth returned: the physical HTTP baseline.
///
/// Runs in the foreground (`daemon off`) as a child process with a generated configuration
/// in a scratch directory, one worker (Hearth has one event loop), no access log, keep-alive
/// without a request cap. `GET` of any path other than `…:commit` answers the file
/// `get.json`; `POST …:commit` answers the fixed commit body with `return 200`; `POST
/// …:runQuery` answers the file `runquery.json` (static files refuse POST with 405, which
/// `error_page 405 =200` turns into an internal GET of the file: too big for `return`).
final class NginxBaseline: Sendable {
    /// The child process.
    let child: ChildProcess
    /// `http://127.0.0.1:<port>`.
    let baseURL: String

    /// Writes the configuration and the served file, starts nginx and waits until it answers.
    /// - Parameters:
    ///   - getBody: the bytes every GET returns (`Content-Type: application/json`).
    ///   - commitBody: the text every `POST …:commit` returns.
    ///   - runQueryBody: the text every `POST …:runQuery` returns.
    ///   - directory: a scratch directory owned by this run.
    /// - Throws: `BenchError.missingTool` without nginx; `.childFailed` when it does not start.
    init(getBody: Data, commitBody: String, runQueryBody: String, directory: URL) async throws(BenchError) {
        guard let nginx = Tools.find("nginx") else { throw .missingTool("nginx not installed (run scripts/bench-deps.sh)") }
        let port = try LoopbackPort.free()
        let dir = directory.appendingPathComponent("nginx")
        guard !commitBody.contains("$") else {
            throw .childFailed("nginx: a fixed body contains \"$\", which `return` would expand")
        }
        let config = Self.configuration(directory: dir.path, port: port, commitBody: commitBody)
        do {
            for sub in ["", "html", "temp"] {
                try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            try getBody.write(to: dir.appendingPathComponent("html/get.json"))
            try Data(runQueryBody.utf8).write(to: dir.appendingPathComponent("html/runquery.json"))
            try config.write(to: dir.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        } catch {
            throw .childFailed("nginx: cannot write its configuration: \(error)")
        }
        baseURL = "http://127.0.0.1:\(port)"
        child = try ChildProcess(
            name: "nginx", executable: nginx,
            arguments: ["-p", dir.path + "/", "-c", dir.appendingPathComponent("nginx.conf").path, "-e", dir.appendingPathComponent("error.log").path],
            outputFile: dir.appendingPathComponent("stdout.log"))
        let probe = baseURL + "/probe"
        do {
            try await child.waitUntilReady(timeout: .seconds(10)) { await SimpleHTTP.answers(probe) }
        } catch {
            await child.stop()
            throw error
        }
    }

    /// The generated `nginx.conf`.
    static func configuration(directory: String, port: Int, commitBody: String) -> String {
        // nginx string literal: single-quoted; escape backslashes and quotes. (Parameters are
        // limited to 4 KB, so large bodies are files, see `runquery.json`.)
        let literal = commitBody.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        return """
            daemon off;
            worker_processes 1;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log warn;
            events { worker_connections 4096; }
            http {
                access_log off;
                client_body_temp_path \(directory)/temp/body;
                proxy_temp_path \(directory)/temp/proxy;
                fastcgi_temp_path \(directory)/temp/fastcgi;
                uwsgi_temp_path \(directory)/temp/uwsgi;
                scgi_temp_path \(directory)/temp/scgi;
                keepalive_requests 100000000;
                keepalive_timeout 120s;
                server {
                    listen 127.0.0.1:\(port);
                    location ~ :commit$ {
                        default_type application/json;
                        return 200 '\(literal)';
                    }
                    location ~ :runQuery$ {
                        root \(directory)/html;
                        error_page 405 =200 /runquery.json;
                        try_files /runquery.json =404;
                    }
                    location = /runquery.json {
                        root \(directory)/html;
                        default_type application/json;
                    }
                    location / {
                        root \(directory)/html;
                        default_type application/json;
                        try_files /get.json =404;
                    }
                }
            }

            """
    }

    /// Stops nginx (SIGTERM to its process group, then SIGKILL).
    func stop() async { await child.stop() }
}
