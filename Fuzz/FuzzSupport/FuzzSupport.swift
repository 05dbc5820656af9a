import FoundationEssentials
import Synchronization

/// What every fuzz target shares (issue 18 item 1). A target defines `fuzzOne(_ bytes:)` and
/// two entry points: built by `scripts/fuzz.sh` (`-sanitize=fuzzer,address -DFUZZING`) its
/// `<Target>_main` calls `FuzzSupport.run`, which hands libFuzzer's driver the input loop; in a
/// normal build its `@main` calls `FuzzSupport.replay`, which runs the files named on the
/// command line once each (a corpus, a crash found earlier) — what the unit tests do too.
public enum FuzzSupport {
#if FUZZING
    nonisolated(unsafe) static var body: ([UInt8]) -> Void = { _ in }

    @_silgen_name("LLVMFuzzerRunDriver")
    static func runDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// Runs libFuzzer's driver on `body` with the process's arguments (`-max_total_time=…`,
    /// corpus folders, …). - Returns: the driver's exit status.
    public static func run(
        _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ body: @escaping ([UInt8]) -> Void
    ) -> Int32 {
        Self.body = body
        var count = argc
        var args = argv
        return runDriver(&count, &args) { data, size in
            FuzzSupport.body(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        }
    }

#endif

    /// Runs `body` once on each file (or each file of each folder) named on the command line.
    public static func replay(_ body: ([UInt8]) -> Void) {
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            let files =
                isDirectory
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 } : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                body(Array(data))
                count += 1
            }
        }
        print("replayed \(count) input(s)")
    }
}

#if FUZZING
    /// The entry libFuzzer's runtime links against (its driver calls what `run` was given).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        FuzzSupport.body(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
#endif
