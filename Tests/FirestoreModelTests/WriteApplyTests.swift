import Testing

@testable import FirestoreModel

@Suite struct WriteApplyTests {
    let db = DatabaseID(project: "p")
    let path = ResourcePath(["c", "d"])
    let t0 = Timestamp(seconds: 10, nanos: 0)
    let t1 = Timestamp(seconds: 20, nanos: 123_456_000)

    func doc(_ fields: FieldMap, updated: Timestamp? = nil) -> Document {
        Document(path: path, fields: fields, createTime: t0, updateTime: updated ?? t0)
    }
    func fp(_ s: String) -> FieldPath { FieldPath(s.split(separator: ".").map(String.init)) }

    func update(_ fields: FieldMap, mask: [String]? = nil, transforms: [FieldTransform] = [], pre: Precondition = .none) -> Write {
        Write(operation: .update(path: path, fields: fields), updateMask: mask.map { $0.map(fp) }, updateTransforms: transforms, currentDocument: pre)
    }

    @Test func absentMaskReplaces() throws {
        let r = try update(["a": .integer(5)]).apply(to: doc(["a": .integer(1), "b": .integer(2)]), commitTime: t1, database: db)
        #expect(r.document?.fields == ["a": .integer(5)])
        #expect(r.changed && r.document?.updateTime == t1 && r.document?.createTime == t0 && r.result == WriteResult(updateTime: t1))
    }

    @Test func maskMergesAndDeletesMaskedAbsentFields() throws {
        let w = update(["a": .integer(9), "z": .integer(0), "m": .map(["x": .integer(5)])], mask: ["a", "b", "m.x"])
        let r = try w.apply(to: doc(["a": .integer(1), "b": .integer(2), "c": .integer(3), "m": .map(["x": .integer(1), "y": .integer(2)])]), commitTime: t1, database: db)
        #expect(r.document?.fields == ["a": .integer(9), "c": .integer(3), "m": .map(["x": .integer(5), "y": .integer(2)])])
    }

    @Test func emptyMaskChangesNoFieldButCreatesMissingDocs() throws {
        let unchanged = try update(["a": .integer(2)], mask: []).apply(to: doc(["a": .integer(1)]), commitTime: t1, database: db)
        #expect(!unchanged.changed && unchanged.document?.fields == ["a": .integer(1)] && unchanged.result.updateTime == t0)
        let created = try update([:], mask: []).apply(to: nil, commitTime: t1, database: db)
        #expect(created.changed && created.document?.fields == [:] && created.document?.createTime == t1)
    }

    @Test func unchangedWritesKeepUpdateTime() throws {
        let r = try update(["a": .integer(1)]).apply(to: doc(["a": .integer(1)]), commitTime: t1, database: db)
        #expect(!r.changed && r.result.updateTime == t0 && r.document?.updateTime == t0)
        // 1 and 1.0 are different stored values.
        let d = try update(["a": .double(1)]).apply(to: doc(["a": .integer(1)]), commitTime: t1, database: db)
        #expect(d.changed && d.result.updateTime == t1)
    }

    /// Timestamps are stored to the microsecond; `-0.0` keeps its sign, as production keeps
    /// it (googleapis/nodejs-firestore#1638: the Web SDK reads back the -0 it wrote), though
    /// the emulator answers 0.0 (Tests/Conformance/skips.json, json_roundtrip).
    @Test func storedFormTruncatesSubMicrosecondsAndKeepsNegativeZero() throws {
        let ts = Timestamp(seconds: 5, nanos: 123_456_789)
        let fields: FieldMap = [
            "z": .double(-0.0), "t": .timestamp(ts), "a": .array([.double(-0.0), .map(["t": .timestamp(ts)])]),
            "g": .geoPoint(GeoPoint(latitude: -0.0, longitude: 1)),
        ]
        let r = try update(fields).apply(to: nil, commitTime: t1, database: db)
        let stored = try #require(r.document?.fields)
        guard case .double(let z)? = stored["z"] else { Issue.record("z"); return }
        #expect(z == 0 && z.sign == .minus)
        #expect(stored["t"] == .timestamp(Timestamp(seconds: 5, nanos: 123_456_000)))
        #expect(stored["a"] == .array([.double(-0.0), .map(["t": .timestamp(Timestamp(seconds: 5, nanos: 123_456_000))])]))
        guard case .geoPoint(let g)? = stored["g"] else { Issue.record("g"); return }
        #expect(g.latitude == 0 && g.latitude.sign == .minus)
        // A timestamp differing below 1 µs changes nothing; -0.0 over 0.0 is a new value.
        let same = try update(["z": .double(0), "t": .timestamp(Timestamp(seconds: 5, nanos: 123_456_001))])
            .apply(to: doc(["z": .double(0), "t": .timestamp(Timestamp(seconds: 5, nanos: 123_456_000))]), commitTime: t1, database: db)
        #expect(!same.changed && same.result.updateTime == t0)
        let signed = try update(["z": .double(-0.0), "t": .timestamp(Timestamp(seconds: 5, nanos: 123_456_000))])
            .apply(to: doc(["z": .double(0), "t": .timestamp(Timestamp(seconds: 5, nanos: 123_456_000))]), commitTime: t1, database: db)
        #expect(signed.changed && signed.result.updateTime == t1)
    }

    @Test func preconditionsAndTheirCodes() throws {
        let existing = doc(["a": .integer(1)])
        #expect(throws: FirestoreError(.notFound, "No document to update: projects/p/databases/(default)/documents/c/d")) {
            try update([:], pre: .exists(true)).apply(to: nil, commitTime: t1, database: db)
        }
        #expect(throws: FirestoreError(.alreadyExists, "Document already exists: projects/p/databases/(default)/documents/c/d")) {
            try update([:], pre: .exists(false)).apply(to: existing, commitTime: t1, database: db)
        }
        // Emulator (Tests/Conformance/transforms.json) and production (google-cloud-firestore
        // test_document_delete / test_update_document): a required update time later than
        // the stored one is INVALID_ARGUMENT, an earlier one FAILED_PRECONDITION; versions
        // are microseconds since the epoch.
        #expect(throws: FirestoreError(.invalidArgument, "Invalid base version, it is greater than the stored version: projects/p/databases/(default)/documents/c/d")) {
            try update([:], pre: .updateTime(t1)).apply(to: existing, commitTime: t1, database: db)
        }
        #expect(throws: FirestoreError(.failedPrecondition, "the stored version (20123456) does not match the required base version (10000000)")) {
            try update([:], pre: .updateTime(t0)).apply(to: doc(["a": .integer(1)], updated: t1), commitTime: t1, database: db)
        }
        // An update time on a missing document is FAILED_PRECONDITION (emulator: version 0),
        // however late it is.
        #expect(throws: FirestoreError(.failedPrecondition, "the stored version (0) does not match the required base version (20123456)")) {
            try update([:], pre: .updateTime(t1)).apply(to: nil, commitTime: t1, database: db)
        }
        #expect(throws: FirestoreError(.invalidArgument, "timestamp cannot have more than microseconds precision")) {
            try Write(operation: .delete(path), currentDocument: .updateTime(Timestamp(seconds: 10, nanos: 1)))
                .apply(to: existing, commitTime: t1, database: db)
        }
        #expect(try update(["a": .integer(2)], pre: .updateTime(t0)).apply(to: existing, commitTime: t1, database: db).changed)
        #expect(try update(["a": .integer(2)], pre: .exists(false)).apply(to: nil, commitTime: t1, database: db).changed)
        let del = Write(operation: .delete(path), currentDocument: .exists(true))
        #expect(throws: FirestoreError.self) { try del.apply(to: nil, commitTime: t1, database: db) }
    }

    @Test func deleteAndVerify() throws {
        let existing = doc(["a": .integer(1)])
        let d = try Write(operation: .delete(path)).apply(to: existing, commitTime: t1, database: db)
        #expect(d.document == nil && d.changed && d.result == WriteResult(updateTime: nil))
        let missing = try Write(operation: .delete(path)).apply(to: nil, commitTime: t1, database: db)
        #expect(!missing.changed && missing.result.updateTime == nil)
        let v = try Write(operation: .verify(path), currentDocument: .exists(true)).apply(to: existing, commitTime: t1, database: db)
        #expect(!v.changed && v.document == existing && v.result == WriteResult(updateTime: t0))
        // Verified missing: the commit time (the emulator answers a time, never `{}`).
        let gone = try Write(operation: .verify(path), currentDocument: .exists(false))
            .apply(to: nil, commitTime: t1, database: db)
        #expect(!gone.changed && gone.document == nil && gone.result == WriteResult(updateTime: t1))
    }

    @Test func legacyTransformWrite() throws {
        let w = Write(operation: .transform(path), updateTransforms: [FieldTransform(fieldPath: fp("n"), operation: .increment(.integer(2)))])
        let r = try w.apply(to: nil, commitTime: t1, database: db)
        #expect(r.document?.fields == ["n": .integer(2)] && r.result.transformResults == [.integer(2)])
    }

    @Test func transformsRunInOrderAfterTheUpdate() throws {
        let w = update(
            ["a": .integer(5)], mask: ["a"],
            transforms: [
                FieldTransform(fieldPath: fp("a"), operation: .increment(.integer(1))),
                FieldTransform(fieldPath: fp("a"), operation: .increment(.integer(1))),
                FieldTransform(fieldPath: fp("m.t"), operation: .serverTimestamp),
                FieldTransform(fieldPath: fp("arr"), operation: .appendMissingElements([.integer(1)])),
            ])
        let r = try w.apply(to: doc(["a": .integer(1)]), commitTime: t1, database: db)
        #expect(r.document?.fields == ["a": .integer(7), "m": .map(["t": .timestamp(t1)]), "arr": .array([.integer(1)])])
        #expect(r.result.transformResults == [.integer(6), .integer(7), .timestamp(t1), .null])
        // A transform that leaves the value as it was: unchanged, previous update time, results still reported.
        let same = try update([:], mask: [], transforms: [FieldTransform(fieldPath: fp("a"), operation: .increment(.integer(0)))])
            .apply(to: doc(["a": .integer(1)]), commitTime: t1, database: db)
        #expect(!same.changed && same.result == WriteResult(updateTime: t0, transformResults: [.integer(1)]))
    }
}

@Suite struct FieldTransformTests {
    let now = Timestamp(seconds: 1, nanos: 0)

    func apply(_ op: FieldTransform.Operation, _ current: Value?) throws -> Value {
        try FieldTransform(fieldPath: FieldPath(["f"]), operation: op).apply(to: current, commitTime: now).0
    }

    @Test func increment() throws {
        #expect(try apply(.increment(.integer(3)), .integer(5)) == .integer(8))
        #expect(try apply(.increment(.double(0.5)), .integer(5)) == .double(5.5))
        #expect(try apply(.increment(.integer(1)), .double(1.5)) == .double(2.5))
        #expect(try apply(.increment(.double(0.2)), .double(0.1)) == .double(0.1 + 0.2))
        #expect(try apply(.increment(.integer(1)), .integer(.max)) == .integer(.max))
        #expect(try apply(.increment(.integer(.max)), .integer(.max)) == .integer(.max))
        #expect(try apply(.increment(.integer(-1)), .integer(.min)) == .integer(.min))
        #expect(try apply(.increment(.integer(.min)), .integer(-1)) == .integer(.min))
        #expect(try apply(.increment(.integer(7)), nil) == .integer(7))
        #expect(try apply(.increment(.integer(2)), .string("x")) == .integer(2))
        #expect(try apply(.increment(.double(2.5)), .null) == .double(2.5))
        #expect(try apply(.increment(.integer(1)), .double(.nan)).isNaN)
        #expect(try apply(.increment(.double(-.infinity)), .double(.infinity)).isNaN)
        #expect(try apply(.increment(.double(1)), .integer(9_007_199_254_740_993)) == .double(9_007_199_254_740_992))
        #expect(throws: FirestoreError.self) { try apply(.increment(.string("1")), .integer(1)) }
        #expect(throws: FirestoreError.self) { try apply(.increment(.null), nil) }
    }

    @Test func maximumAndMinimum() throws {
        #expect(try apply(.maximum(.double(3.5)), .integer(3)) == .double(3.5))
        #expect(try apply(.maximum(.double(3)), .integer(3)) == .integer(3))  // equal: keep stored
        #expect(try apply(.maximum(.integer(3)), .double(3)) == .double(3))
        #expect(try apply(.maximum(.double(-0.0)), .double(0)) == .double(0))
        #expect(try apply(.maximum(.integer(1)), .double(.nan)).isNaN)  // NaN wins
        #expect(try apply(.maximum(.double(.nan)), .integer(1)).isNaN)
        #expect(try apply(.maximum(.integer(2)), nil) == .integer(2))
        #expect(try apply(.maximum(.integer(2)), .string("z")) == .integer(2))
        #expect(try apply(.maximum(.integer(2)), .integer(10)) == .integer(10))
        #expect(try apply(.minimum(.double(2.5)), .integer(3)) == .double(2.5))
        #expect(try apply(.minimum(.double(3)), .integer(3)) == .integer(3))
        #expect(try apply(.minimum(.integer(1)), .double(.nan)).isNaN)
        #expect(try apply(.minimum(.double(.nan)), .integer(1)).isNaN)
        #expect(try apply(.minimum(.double(-.infinity)), .integer(.min)) == .double(-.infinity))
        #expect(try apply(.minimum(.integer(9_007_199_254_740_993)), .double(9_007_199_254_740_992)) == .double(9_007_199_254_740_992))
        #expect(try apply(.maximum(.integer(9_007_199_254_740_993)), .double(9_007_199_254_740_992)) == .integer(9_007_199_254_740_993))
        #expect(throws: FirestoreError.self) { try apply(.maximum(.string("a")), .integer(1)) }
    }

    @Test func arrayTransforms() throws {
        #expect(try apply(.appendMissingElements([.integer(1), .integer(2)]), nil) == .array([.integer(1), .integer(2)]))
        #expect(try apply(.appendMissingElements([.integer(1)]), .string("x")) == .array([.integer(1)]))
        #expect(try apply(.appendMissingElements([.integer(2), .integer(3)]), .array([.integer(1), .integer(2)])) == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(try apply(.appendMissingElements([.double(3)]), .array([.integer(3)])) == .array([.integer(3)]))
        #expect(try apply(.appendMissingElements([.double(.nan)]), .array([.double(.nan)])) == .array([.double(.nan)]))
        #expect(try apply(.appendMissingElements([.null]), .array([.null])) == .array([.null]))
        #expect(try apply(.appendMissingElements([.integer(4), .integer(4), .double(4)]), .array([])) == .array([.integer(4)]))
        #expect(try apply(.appendMissingElements([.map(["k": .double(1)]), .map(["k": .integer(2)])]), .array([.map(["k": .integer(1)])]))
            == .array([.map(["k": .integer(1)]), .map(["k": .integer(2)])]))
        #expect(try apply(.removeAllFromArray([.integer(1)]), .array([.integer(1), .integer(2), .integer(1), .integer(3)])) == .array([.integer(2), .integer(3)]))
        #expect(try apply(.removeAllFromArray([.double(3)]), .array([.integer(3), .string("3")])) == .array([.string("3")]))
        #expect(try apply(.removeAllFromArray([.double(.nan)]), .array([.double(.nan), .integer(1)])) == .array([.integer(1)]))
        #expect(try apply(.removeAllFromArray([.null]), .array([.null, .boolean(false)])) == .array([.boolean(false)]))
        #expect(try apply(.removeAllFromArray([.integer(1)]), nil) == .array([]))
        #expect(try apply(.removeAllFromArray([.integer(1)]), .integer(1)) == .array([]))
        let t = FieldTransform(fieldPath: FieldPath(["f"]), operation: .removeAllFromArray([]))
        #expect(try t.apply(to: .array([]), commitTime: now).1 == .null)
    }

    @Test func serverTimestampIsTheCommitTime() throws {
        let t = FieldTransform(fieldPath: FieldPath(["f"]), operation: .serverTimestamp)
        let (v, r) = try t.apply(to: .string("old"), commitTime: now)
        #expect(v == .timestamp(now) && r == .timestamp(now))
    }
}
