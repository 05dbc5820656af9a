/// One entry of ListDocuments: a stored document, or (with `showMissing`) a missing one that
/// has documents below it. Source: Firestore REST v1 / gRPC ListDocuments `show_missing`.
public enum ListedDocument: Sendable, Hashable {
    /// A stored document.
    case document(Document)
    /// No document at this path, but documents exist below it.
    case missing(ResourcePath)

    /// The entry's path.
    public var path: ResourcePath {
        switch self {
        case .document(let d): return d.path
        case .missing(let p): return p
        }
    }
}
