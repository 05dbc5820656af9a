import FuzzSupport
import SecurityRules

/// The rules lexer, parser and checker on one input as a rules file (issue 18 item 1): it
/// compiles or is refused with a `RulesCompileError`, never crashes or hangs.
func fuzzOne(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? Ruleset(source: text, fileName: "firestore.rules")
}

#if FUZZING
    @_cdecl("FuzzRules_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzSupport.run(argc, argv, fuzzOne)
    }
#else
    @main struct Replay { static func main() { FuzzSupport.replay(fuzzOne) } }
#endif
