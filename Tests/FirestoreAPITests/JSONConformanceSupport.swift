import FirestoreModel
import Foundation
import GoogleWire
import Testing

@testable import FirestoreAPI

/// Loads the conformance corpora recorded from the emulator (`scripts/record_conformance.py`)
/// and the skip list (`Tests/Conformance/skips.json`, grouped by reason).
enum Conformance {
    /// `Tests/Conformance/`, located from this file.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance")

    /// The project the corpora were recorded in.
    static let database = DatabaseID(project: "demo-conformance")

    /// Parses one corpus file.
    static func load(_ name: String) throws -> JSONValue {
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FirestoreError.notFound("missing corpus \(name)")
        }
        // limits.json holds documents 100 maps deep (three JSON levels each).
        return try JSONValue.parse([UInt8](data), maxDepth: 1000)
    }

    /// Case ids to skip in `corpus`, each with the reason it is skipped.
    static func skips(_ corpus: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for group in try load("skips.json")[corpus]?.arrayItems ?? [] {
            let reason = group["reason"]?.stringItem ?? "?"
            for id in group["cases"]?.arrayItems ?? [] { out[id.stringItem ?? ""] = reason }
        }
        return out
    }
}

extension JSONValue {
    /// The elements when `self` is an array, else nil.
    var arrayItems: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The string when `self` is a string, else nil.
    var stringItem: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The same value with every object's members sorted by key (recursively), for
    /// comparing JSON whose member order is not significant.
    var sortedMembers: JSONValue {
        switch self {
        case .array(let a): return .array(a.map(\.sortedMembers))
        case .object(let members):
            return .object(members.map { JSONValue.Member($0.key, $0.value.sortedMembers) }.sorted { utf8Less($0.key, $1.key) })
        default: return self
        }
    }

    /// Replaces string leaves found in `substitutions` (clock placeholders) by their values.
    func substituting(_ substitutions: [String: String]) -> JSONValue {
        switch self {
        case .string(let s): return .string(substitutions[s] ?? s)
        case .array(let a): return .array(a.map { $0.substituting(substitutions) })
        case .object(let members): return .object(members.map { .init($0.key, $0.value.substituting(substitutions)) })
        default: return self
        }
    }
}

/// Collects disagreements and checks them against the skip list: an unlisted disagreement
/// fails, and so does a listed case that now agrees (the skip list must stay exact).
struct ConformanceTally {
    let corpus: String
    let skips: [String: String]
    var disagreements: [String: String] = [:]
    var checked = 0

    init(_ corpus: String) throws {
        self.corpus = corpus
        self.skips = try Conformance.skips(corpus)
    }

    mutating func check(_ id: String, _ agrees: Bool, _ detail: @autoclosure () -> String) {
        checked += 1
        if !agrees { disagreements[id] = detail() }
    }

    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        for (id, detail) in disagreements.sorted(by: { $0.key < $1.key }) where skips[id] == nil {
            Issue.record("\(corpus) \(id): \(detail)", sourceLocation: sourceLocation)
        }
        for (id, reason) in skips.sorted(by: { $0.key < $1.key }) where disagreements[id] == nil {
            Issue.record("\(corpus) \(id) is skipped (\(reason)) but now agrees: remove it from skips.json", sourceLocation: sourceLocation)
        }
        #expect(checked > 0)
    }
}
