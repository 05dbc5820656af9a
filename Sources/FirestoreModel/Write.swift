/// A condition a write requires of the stored document.
/// Source: googleapis `common.proto` Precondition; docs/reference/firestore-wire.md §1.4.
public enum Precondition: Sendable, Hashable {
    /// No condition.
    case none
    /// `exists: true` — must exist; `exists: false` — must not.
    case exists(Bool)
    /// Must exist with exactly this update time.
    case updateTime(Timestamp)
}

/// One field transform of a write. Source: googleapis `write.proto` DocumentTransform.FieldTransform.
public struct FieldTransform: Sendable, Hashable {
    /// What the transform does.
    public enum Operation: Sendable, Hashable {
        /// `setToServerValue: REQUEST_TIME` — the commit time.
        case serverTimestamp
        case increment(Value)
        case maximum(Value)
        case minimum(Value)
        case appendMissingElements([Value])
        case removeAllFromArray([Value])
    }

    /// The field to transform.
    public var fieldPath: FieldPath
    /// The operation.
    public var operation: Operation

    /// Creates a transform.
    public init(fieldPath: FieldPath, operation: Operation) {
        self.fieldPath = fieldPath
        self.operation = operation
    }
}

/// A write to one document. Source: googleapis `write.proto` Write; docs/reference/firestore-wire.md §1.4.
public struct Write: Sendable, Hashable {
    /// The operation arm of the write.
    public enum Operation: Sendable, Hashable {
        /// Set fields: whole replace without a mask, masked merge with one.
        case update(path: ResourcePath, fields: FieldMap)
        case delete(ResourcePath)
        /// Legacy standalone transform (`transform: DocumentTransform`).
        case transform(ResourcePath)
        /// Only checks `currentDocument` (field 5 of the client SDK protos).
        case verify(ResourcePath)
    }

    /// The operation.
    public var operation: Operation
    /// `updateMask`: nil = absent (replace), `[]` = present but empty (change no field).
    public var updateMask: [FieldPath]?
    /// Transforms applied after the update, in order.
    public var updateTransforms: [FieldTransform]
    /// The precondition.
    public var currentDocument: Precondition

    /// Creates a write.
    public init(
        operation: Operation, updateMask: [FieldPath]? = nil, updateTransforms: [FieldTransform] = [],
        currentDocument: Precondition = .none
    ) {
        self.operation = operation
        self.updateMask = updateMask
        self.updateTransforms = updateTransforms
        self.currentDocument = currentDocument
    }

    /// The document this write targets.
    public var path: ResourcePath {
        switch operation {
        case .update(let p, _), .delete(let p), .transform(let p), .verify(let p): return p
        }
    }
}

/// The outcome of one write in a commit. Source: googleapis `write.proto` WriteResult.
public struct WriteResult: Sendable, Hashable {
    /// The document's update time after the write; nil after a delete or a verify.
    public var updateTime: Timestamp?
    /// One value per field transform, in order.
    public var transformResults: [Value]

    /// Creates a result.
    public init(updateTime: Timestamp?, transformResults: [Value] = []) {
        self.updateTime = updateTime
        self.transformResults = transformResults
    }
}
