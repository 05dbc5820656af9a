import Foundation

/// Where the package's files are at run time: the directory holding `Package.swift` and
/// `Benchmarks/`, found from the working directory upwards, else from this source file.
enum PackageRoot {
    /// The package root.
    static let url: URL = {
        var dir = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Benchmarks/cel/rules_baseline.py").path) { return dir }
            dir.deleteLastPathComponent()
        }
        // Benchmarks/HearthBench/PackageRoot.swift → three levels up.
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// `url` + `relative`.
    static func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }
}
