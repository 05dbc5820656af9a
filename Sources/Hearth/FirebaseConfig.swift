import FoundationEssentials
import GoogleWire
import FirestoreModel

/// The parts of `firebase.json` Hearth reads: emulator hosts and ports, the rules file.
///
/// Source: firebase-tools `firebaseConfig.ts` as summarised in docs/reference/firestore-wire.md §2.3.
public struct FirebaseConfig: Sendable {
    /// One emulator's address.
    public struct Endpoint: Sendable, Hashable {
        /// Host to bind, e.g. `127.0.0.1`.
        public var host: String
        /// TCP port.
        public var port: Int
    }

    /// Directory that holds `firebase.json`; relative paths resolve against it.
    public var directory: String
    /// Firestore (REST, gRPC, Listen). Default 8080.
    public var firestore: Endpoint
    /// Functions (callable). Default 5001.
    public var functions: Endpoint
    /// Auth. Default 9099.
    public var auth: Endpoint
    /// Emulator hub. Default 4400.
    public var hub: Endpoint
    /// Emulator UI. Default 4000.
    public var ui: Endpoint
    /// `emulators.ui.enabled`: serve the Emulator UI. Default true, as firebase-tools.
    public var uiEnabled = true
    /// `functions.codebase` (of the first entry when `functions` is a list): which in-process
    /// backend serves the functions, `poetry` for `PoetryBackend`, any other (or none) for the
    /// first app's `ShoutsBackend`.
    public var functionsCodebase: String?
    /// Absolute path of the Firestore rules file, if configured.
    public var rulesFile: String?
    /// Absolute path of the indexes file, if configured.
    public var indexesFile: String?
    /// `emulators.firestore.requireIndexes` (Hearth's own setting): refuse queries production
    /// refuses for a missing index. Default false, as the emulator.
    public var requireIndexes = false
    /// Keys of `firebase.json` Hearth does not serve (`storage`, `emulators.database`, …), in
    /// file order; named once in one warning at start, never a reason to refuse.
    public var ignoredKeys: [String] = []

    /// Top-level keys Hearth reads; any other is ignored with a warning.
    static let servedKeys: Set<String> = ["firestore", "functions", "emulators"]
    /// Keys of `emulators` Hearth reads or serves; any other is ignored with a warning.
    static let servedEmulators: Set<String> = ["firestore", "functions", "auth", "hub", "ui", "singleProjectMode"]

    /// The one warning line naming `ignoredKeys`, or nil when there are none.
    public var ignoredKeysWarning: String? {
        ignoredKeys.isEmpty
            ? nil
            : "hearth: firebase.json: not served by Hearth, ignored: \(ignoredKeys.joined(separator: ", "))"
    }

    /// Defaults of firebase-tools `constants.ts`.
    public static func defaults(directory: String) -> FirebaseConfig {
        FirebaseConfig(
            directory: directory, firestore: Endpoint(host: "127.0.0.1", port: 8080),
            functions: Endpoint(host: "127.0.0.1", port: 5001), auth: Endpoint(host: "127.0.0.1", port: 9099),
            hub: Endpoint(host: "127.0.0.1", port: 4400), ui: Endpoint(host: "127.0.0.1", port: 4000),
            rulesFile: nil, indexesFile: nil)
    }

    /// Loads `firebase.json` as the Firebase CLI reads it: `//` and `/* */` comments allowed,
    /// relative paths against the file's directory (docs/reference/firestore-wire.md §2.3).
    /// - Throws: `ConfigError` in one line naming the file when it cannot be read, when it is not
    ///   JSON (`path:line:column: reason`) or not an object, when a port is not an integer
    ///   0…65535, or when an absolute rules or indexes path does not exist.
    public static func load(path: String) throws -> FirebaseConfig {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError("\(path): cannot read the file")
        }
        let root = try parse(Array(data), path: path)
        var config = defaults(directory: directory)
        if case .object(let members) = root {
            for m in members where !servedKeys.contains(m.key) { config.ignoredKeys.append(m.key) }
        }
        if case .object(let members)? = root["emulators"] {
            for m in members where !servedEmulators.contains(m.key) { config.ignoredKeys.append("emulators.\(m.key)") }
        }
        let emulators = root["emulators"]
        func endpoint(_ key: String, _ current: Endpoint) throws -> Endpoint {
            guard let e = emulators?[key], case .object = e else { return current }
            var out = current
            if case .string(let h)? = e["host"] { out.host = h == "localhost" ? "127.0.0.1" : h }
            if let p = e["port"] {
                let n: Int?
                switch p {
                case .number(let text), .string(let text): n = Int(text)
                default: n = nil
                }
                guard let n, (0...65535).contains(n) else {
                    throw ConfigError("\(path): emulators.\(key).port must be an integer 0…65535")
                }
                out.port = n
            }
            return out
        }
        config.firestore = try endpoint("firestore", config.firestore)
        if let r = emulators?["firestore"]?["requireIndexes"] {
            guard case .bool(let b) = r else {
                throw ConfigError("\(path): emulators.firestore.requireIndexes must be true or false")
            }
            config.requireIndexes = b
        }
        config.functions = try endpoint("functions", config.functions)
        config.auth = try endpoint("auth", config.auth)
        config.hub = try endpoint("hub", config.hub)
        config.ui = try endpoint("ui", config.ui)
        if let enabled = emulators?["ui"]?["enabled"] {
            guard case .bool(let b) = enabled else { throw ConfigError("\(path): emulators.ui.enabled must be true or false") }
            config.uiEnabled = b
        }
        var functions = root["functions"]
        if case .array(let list)? = functions { functions = list.first }
        if case .string(let codebase)? = functions?["codebase"] { config.functionsCodebase = codebase }
        var firestore = root["firestore"]
        if case .array(let list)? = firestore { firestore = list.first }
        func existing(_ p: String, _ key: String) throws -> String {
            if p.hasPrefix("/"), !FileManager.default.fileExists(atPath: p) {
                throw ConfigError("\(path): firestore.\(key) \(p) does not exist")
            }
            return resolve(p, in: directory)
        }
        if case .string(let rules)? = firestore?["rules"] { config.rulesFile = try existing(rules, "rules") }
        if case .string(let indexes)? = firestore?["indexes"] { config.indexesFile = try existing(indexes, "indexes") }
        return config
    }

    /// Parses `bytes` as JSON with comments; the root must be an object.
    /// - Throws: `ConfigError` `path:line:column: reason` for malformed JSON, `path: not a JSON
    ///   object` for another root.
    static func parse(_ bytes: [UInt8], path: String) throws -> JSONValue {
        let text = JSONValue.blankingComments(bytes)
        let root: JSONLocatedValue
        do {
            root = try JSONValue.parseLocated(text)
        } catch {
            let (line, column) = JSONSourceLines(text).position(ofByte: error.offset)
            throw ConfigError("\(path):\(line):\(column): invalid JSON: \(error.reason)")
        }
        guard case .object = root.value else { throw ConfigError("\(path): not a JSON object") }
        return root.value
    }

    static func resolve(_ p: String, in directory: String) -> String {
        p.hasPrefix("/") ? p : URL(fileURLWithPath: directory).appendingPathComponent(p).standardizedFileURL.path
    }
}

/// A configuration or command-line mistake, with a message for the user.
public struct ConfigError: Error, CustomStringConvertible {
    /// What is wrong.
    public var description: String
    /// Creates an error.
    public init(_ d: String) { description = d }
}
