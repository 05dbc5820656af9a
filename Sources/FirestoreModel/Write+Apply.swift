/// The outcome of applying one write to one document state.
public struct AppliedWrite: Sendable {
    /// The document after the write; nil when it does not exist afterwards.
    public var document: Document?
    /// True when the stored document changes (fields differ, or it was created or deleted).
    public var changed: Bool
    /// The write result to report.
    public var result: WriteResult
}

extension Write {
    /// Applies the write to `current` at `commitTime`, checking the precondition first.
    ///
    /// Pure: the caller stores the result. Semantics of masks, transforms and versions as
    /// docs/reference/firestore-wire.md §1.3–§1.4 describe; unchanged writes keep their `updateTime`. Values are
    /// stored as Firestore stores them: timestamps truncated to microseconds, transform
    /// results likewise. `-0.0` keeps its sign, as production keeps it (the Web SDK reads back
    /// the -0 it wrote, googleapis/nodejs-firestore#1638; firebase/firebase-js-sdk#2751); the
    /// emulator stores it as `0.0`. So rewriting `-0.0` over `0.0` is a change, while queries
    /// still find it equal to `0` (`Value.compare`). A `verify` reports the document's update
    /// time, or the commit time when it verified the document missing.
    /// - Parameters:
    ///   - current: the stored document, or nil when missing.
    ///   - commitTime: the commit time (also the value of `REQUEST_TIME` transforms).
    ///   - database: used for the resource names in error messages.
    /// - Throws: `.notFound` ("No document to update: …") for `exists: true` on a missing
    ///   document, `.alreadyExists` for `exists: false` on an existing one; for an
    ///   `updateTime` precondition `.invalidArgument` when it is later than the stored
    ///   document's, `.failedPrecondition` when earlier or the document is missing (as
    ///   `checkUpdateTime` documents); `.invalidArgument` for a transform whose operand or
    ///   target is invalid.
    public func apply(to current: Document?, commitTime: Timestamp, database: DatabaseID) throws(FirestoreError)
        -> AppliedWrite
    {
        let name = database.resourceName(path)
        switch currentDocument {
        case .none: break
        case .exists(true):
            if current == nil { throw FirestoreError(.notFound, "No document to update: \(name)") }
        case .exists(false):
            if current != nil { throw FirestoreError(.alreadyExists, "Document already exists: \(name)") }
        case .updateTime(let t):
            try Self.checkUpdateTime(t, of: current, name: name)
        }
        var fields: FieldMap
        switch operation {
        case .verify:
            // The verified document's update time; for a missing one the emulator reports a
            // clock reading taken as its commit reads (before the commit time, the same for
            // every verify of the request, not a transaction's read time). Hearth reads at the
            // commit time, so reports that (Tests/Conformance/transforms.json, `<verifyTime>`).
            let time = current?.updateTime ?? commitTime
            return AppliedWrite(document: current, changed: false, result: WriteResult(updateTime: time))
        case .delete:
            return AppliedWrite(document: nil, changed: current != nil, result: WriteResult(updateTime: nil))
        case .transform:
            fields = current?.fields ?? [:]
        case .update(_, let body):
            if let mask = updateMask {
                fields = current?.fields ?? [:]
                for p in mask {
                    if let v = body.value(at: p) {
                        fields.setValue(v, at: p)
                    } else {
                        fields.removeValue(at: p)
                    }
                }
            } else {
                fields = body
            }
        }
        var results: [Value] = []
        results.reserveCapacity(updateTransforms.count)
        for t in updateTransforms {
            let (newValue, result) = try t.apply(to: fields.value(at: t.fieldPath), commitTime: commitTime)
            fields.setValue(newValue, at: t.fieldPath)
            results.append(result.storedForm ?? result)
        }
        for (k, v) in fields {
            if let s = v.storedForm { fields[k] = s }
        }
        if let c = current, c.fields == fields {
            return AppliedWrite(document: c, changed: false, result: WriteResult(updateTime: c.updateTime, transformResults: results))
        }
        let doc = Document(
            path: path, fields: fields, createTime: current?.createTime ?? commitTime, updateTime: commitTime)
        return AppliedWrite(document: doc, changed: true, result: WriteResult(updateTime: commitTime, transformResults: results))
    }
}

extension Write {
    /// Checks an `updateTime` precondition against the stored document, as the emulator
    /// does: versions are microseconds since the epoch, a missing document has version 0.
    ///
    /// - Throws: `.invalidArgument` "timestamp cannot have more than microseconds precision"
    ///   for sub-microsecond digits; `.invalidArgument` "Invalid base version, it is greater
    ///   than the stored version: NAME" when the required time is later than the stored
    ///   document's (google-cloud-firestore's `test_document_delete` and
    ///   `test_update_document` expect INVALID_ARGUMENT there from production too);
    ///   `.failedPrecondition` "the stored version (S) does not match the required base
    ///   version (R)" when it is earlier, or the document is missing.
    ///   Source: the emulator (Tests/Conformance/transforms.json).
    static func checkUpdateTime(_ required: Timestamp, of current: Document?, name: String) throws(FirestoreError) {
        guard required.nanos % 1000 == 0 else {
            throw .invalidArgument("timestamp cannot have more than microseconds precision")
        }
        let stored = current?.updateTime
        if let stored, stored == required { return }
        if let stored, stored < required {
            throw .invalidArgument("Invalid base version, it is greater than the stored version: \(name)")
        }
        throw .failedPrecondition(
            "the stored version (\(stored?.versionMicros ?? 0)) does not match the required base version (\(required.versionMicros))")
    }
}

extension Timestamp {
    /// Microseconds since the epoch: the emulator's "version" of a document's update time.
    var versionMicros: Int64 { seconds * 1_000_000 + Int64(nanos / 1000) }
}

extension FieldTransform {
    /// Applies the transform to the field's current value.
    /// - Returns: the new field value and the transform result (`nullValue` for array transforms).
    /// - Throws: `.invalidArgument` when a numeric transform's operand is not a number.
    /// Source: docs/reference/firestore-wire.md §1.4 transform table.
    public func apply(to current: Value?, commitTime: Timestamp) throws(FirestoreError) -> (Value, Value) {
        switch operation {
        case .serverTimestamp:
            let v = Value.timestamp(commitTime)
            return (v, v)
        case .increment(let operand):
            guard operand.isNumber else {
                throw .invalidArgument("Increment operand must be a number, got \(operand.typeName).")
            }
            let v: Value
            switch (current, operand) {
            case (.integer(let a)?, .integer(let b)):
                let (sum, overflow) = a.addingReportingOverflow(b)
                v = .integer(overflow ? (b > 0 ? .max : .min) : sum)
            case (.integer(let a)?, .double(let b)): v = .double(Double(a) + b)
            case (.double(let a)?, .integer(let b)): v = .double(a + Double(b))
            case (.double(let a)?, .double(let b)): v = .double(a + b)
            default: v = operand
            }
            return (v, v)
        case .maximum(let operand), .minimum(let operand):
            guard operand.isNumber else {
                throw .invalidArgument("Maximum/minimum operand must be a number, got \(operand.typeName).")
            }
            guard let c = current, c.isNumber else { return (operand, operand) }
            if c.isNaN { return (c, c) }
            if operand.isNaN { return (operand, operand) }
            let order = Value.compare(operand, c)
            let wantGreater: Bool
            if case .maximum = operation { wantGreater = true } else { wantGreater = false }
            let v = (order == .greater && wantGreater) || (order == .less && !wantGreater) ? operand : c
            return (v, v)
        case .appendMissingElements(let elements):
            var array: [Value] = []
            if case .array(let a)? = current { array = a }
            for e in elements where !array.contains(where: { $0.firestoreEquals(e) }) { array.append(e) }
            return (.array(array), .null)
        case .removeAllFromArray(let elements):
            var array: [Value] = []
            if case .array(let a)? = current { array = a }
            array.removeAll { x in elements.contains { $0.firestoreEquals(x) } }
            return (.array(array), .null)
        }
    }
}

extension Value {
    /// The value as Firestore stores it, or nil when it already is: timestamps truncated to
    /// microseconds, recursively. Doubles (`-0.0` included) are stored as sent.
    /// Source: docs/reference/firestore-wire.md §1.4 (microsecond storage); emulator (Tests/Conformance/json_roundtrip.json).
    fileprivate var storedForm: Value? {
        switch self {
        case .timestamp(let t): return t.nanos % 1000 == 0 ? nil : .timestamp(t.truncatedToMicroseconds)
        case .array(var a):
            var changed = false
            for i in a.indices {
                if let s = a[i].storedForm {
                    a[i] = s
                    changed = true
                }
            }
            return changed ? .array(a) : nil
        case .map(var m):
            var changed = false
            for (k, v) in m {
                if let s = v.storedForm {
                    m[k] = s
                    changed = true
                }
            }
            return changed ? .map(m) : nil
        default: return nil
        }
    }
}
