import FirestoreModel
import FuzzSupport
import ProtoWire

/// The export reader on one input (issue 18 item 1): as a LevelDB log whose records are
/// decoded as entities, and as one entity, and as the two metadata files. Refusals are fine;
/// a crash, a leak or a hang is not.
func fuzzOne(_ bytes: [UInt8]) {
    if let records = try? LevelDBLog.records(in: bytes) {
        for r in records { _ = try? ManagedExportEntity.decode(r) }
    }
    _ = try? ManagedExportEntity.decode(bytes)
    _ = try? ManagedExportMetadata.kindGroups(inOverall: bytes)
    _ = try? ManagedExportMetadata.outputFiles(inKind: bytes)
}

#if FUZZING
    @_cdecl("FuzzExport_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzSupport.run(argc, argv, fuzzOne)
    }
#else
    @main struct Replay { static func main() { FuzzSupport.replay(fuzzOne) } }
#endif
