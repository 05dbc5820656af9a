import FirestoreAPI
import FuzzSupport
import FirestoreModel
import GoogleWire

/// The JSON readers on one input (issue 18 item 1): the JSON parser (with `//` and `/* */`
/// comments blanked first, as `firebase.json` is read), REST v1 document fields and values
/// decoded from it, and `firestore.indexes.json` decoding. Refusals are fine; a crash, a leak
/// or a hang is not.
func fuzzOne(_ bytes: [UInt8]) {
    let blanked = JSONValue.blankingComments(bytes)
    if let json = try? JSONValue.parse(blanked) {
        _ = try? RESTCodec.decodeFields(json, at: "fields")
        _ = try? RESTCodec.decodeValue(json)
        _ = json.serialized()
    }
    _ = try? IndexesFile.decode(bytes)
    _ = try? IndexesFile.amend(bytes, adding: IndexConfiguration())
}

#if FUZZING
    @_cdecl("FuzzJSON_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzSupport.run(argc, argv, fuzzOne)
    }
#else
    @main struct Replay { static func main() { FuzzSupport.replay(fuzzOne) } }
#endif
