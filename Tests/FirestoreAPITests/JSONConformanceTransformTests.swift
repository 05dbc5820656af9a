import FirestoreModel
import GoogleWire
import Testing

@testable import FirestoreAPI

/// `transforms.json`: `Write.apply` (after the codec and the write validation the model
/// offers) gives the emulator's write result, resulting document and error codes.
@Suite struct JSONConformanceTransformTests {
    /// 2023-11-14T22:13:20Z: after the corpus's "earlier" precondition times (2000) and
    /// before its "later" ones (2099), as the emulator's clock was when recording.
    static let before = Timestamp(seconds: 1_700_000_000, nanos: 0)
    static let commit = Timestamp(seconds: 1_700_000_100, nanos: 5000)

    /// Clock placeholders of the corpus → the instants this test uses. `<requestTime>` is the
    /// commit time in the model (the emulator reads its clock separately, to the millisecond),
    /// and so is `<verifyTime>`, the time of a document verified missing (the emulator's is a
    /// reading just before its commit time; Hearth reads at the commit time).
    static let clock = [
        "<updateTime:before>": before.rfc3339, "<commitTime>": commit.rfc3339, "<createTime>": commit.rfc3339,
        "<requestTime>": commit.rfc3339, "<verifyTime>": commit.rfc3339,
    ]

    @Test func writesMatchTheEmulator() throws {
        let corpus = try Conformance.load("transforms.json")
        let db = Conformance.database
        var tally = try ConformanceTally("transforms")
        for c in corpus["cases"]?.arrayItems ?? [] {
            let id = c["id"]?.stringItem ?? "?"
            let note = c["note"]?.stringItem ?? ""
            let path = ResourcePath(["transforms", id])
            var current: Document?
            if let existing = c["existing"], existing != .null {
                // Stored through a write, as the emulator stored it (timestamps to the µs).
                let fields = try RESTCodec.decodeFields(existing, at: "existing")
                let setup = Write(operation: .update(path: path, fields: fields))
                current = try setup.apply(to: nil, commitTime: Self.before, database: db).document
            }
            let outcome: Result<AppliedWrite, FirestoreError>
            do {
                let write = try RESTCodec.decodeWrite(c["write"] ?? .null, database: db)
                try Self.validate(write)
                outcome = .success(try write.apply(to: current, commitTime: Self.commit, database: db))
            } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .success(let applied):
                guard let wantResult = c["writeResult"] else {
                    tally.check(id, false, "\(note): succeeded, emulator failed with \(c["error"]?.serializedString ?? "")")
                    continue
                }
                let gotResult = RESTCodec.encodeWriteResult(applied.result).sortedMembers
                let want = wantResult.substituting(Self.clock).sortedMembers
                var gotDoc = JSONValue.null
                if let d = applied.document {
                    // The codec writes JSON text; read it back as a tree to drop `name`.
                    let full = (try? JSONValue.parse(RESTCodec.encodeDocument(d, database: db).serialized())) ?? .null
                    if case .object(let members) = full { gotDoc = .object(members.filter { $0.key != "name" }) }
                }
                let wantDoc = (c["document"] ?? .null).substituting(Self.clock)
                tally.check(
                    id, gotResult == want && gotDoc.sortedMembers == wantDoc.sortedMembers,
                    "\(note): got \(gotResult.serializedString) \(gotDoc.serializedString), emulator \(want.serializedString) \(wantDoc.serializedString)")
            case .failure(let e):
                let want = c["error"]?["status"]?.stringItem ?? "(success)"
                tally.check(id, e.code.name == want, "\(note): got \(e), emulator \(want)")
            }
        }
        tally.finish()
    }

    /// The write validation the model offers: stored field names and values, and writable
    /// mask and transform paths.
    static func validate(_ write: Write) throws(FirestoreError) {
        if case .update(let path, let fields) = write.operation { try DocumentLimits.validate(fields: fields, path: path) }
        for p in write.updateMask ?? [] { try p.validateForWrite() }
        for t in write.updateTransforms { try t.fieldPath.validateForWrite() }
    }
}
