import FirestoreModel
import Testing

@testable import FirestoreAPI

/// `json_roundtrip.json`: decoding the written JSON, storing it as a write does
/// (`DocumentLimits.validate` + `Write.apply`) and encoding it again gives the exact JSON the
/// emulator returned; inputs it rejected are rejected by the codec or the model.
@Suite struct JSONConformanceRoundTripTests {
    @Test func valuesRoundTripLikeTheEmulator() throws {
        let corpus = try Conformance.load("json_roundtrip.json")
        let db = Conformance.database
        var tally = try ConformanceTally("json_roundtrip")
        for c in corpus["cases"]?.arrayItems ?? [] {
            let id = c["id"]?.stringItem ?? "?"
            let note = c["note"]?.stringItem ?? ""
            let path = ResourcePath(["roundtrip", id])
            let stored: Result<Value, FirestoreError>
            do {
                let value = try RESTCodec.decodeValue(c["input"] ?? .null)
                try DocumentLimits.validate(fields: ["v": value], path: path)
                let write = Write(operation: .update(path: path, fields: ["v": value]))
                let applied = try write.apply(to: nil, commitTime: Timestamp(seconds: 1, nanos: 0), database: db)
                stored = .success(applied.document?.fields["v"] ?? .null)
            } catch {
                stored = .failure(error)
            }
            switch (stored, c["output"]) {
            case (.success(let v), let want?):
                let got = RESTCodec.encodeValue(v)
                tally.check(id, got.sortedMembers == want.sortedMembers, "\(note): got \(got.serializedString), emulator \(want.serializedString)")
            case (.failure(let e), nil):
                tally.check(id, e.code == .invalidArgument, "\(note): got \(e), emulator INVALID_ARGUMENT")
            case (.success(let v), nil):
                tally.check(id, false, "\(note): accepted as \(RESTCodec.encodeValue(v).serializedString), emulator rejected it: \(c["error"]?.serializedString ?? "")")
            case (.failure(let e), let want?):
                tally.check(id, false, "\(note): rejected (\(e)), emulator stored \(want.serializedString)")
            }
        }
        tally.finish()
    }
}
