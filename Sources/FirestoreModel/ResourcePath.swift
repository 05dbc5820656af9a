/// A path of a document or collection relative to a database's documents root.
///
/// `["rooms", "r1"]` is a document (even count), `["rooms"]` a collection (odd count),
/// `[]` the root. Segments are raw (decoded) ids. Source: docs/reference/firestore-wire.md §1.10.
public struct ResourcePath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The decoded segments.
    public var segments: [String]

    /// Creates a path from decoded segments.
    public init(_ segments: [String]) { self.segments = segments }

    /// The documents root (no segments).
    public static let root = ResourcePath([])

    /// Splits a slash-separated relative path (`"rooms/r1"`) into segments; empty string is the root.
    public init(relative: String) {
        // Split on the byte `/`, not on Characters: every document name of every request.
        segments = relative.isEmpty
            ? [] : relative.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(relative[$0.startIndex..<$0.endIndex]) }
    }

    /// True when the path names a document (even, non-zero number of segments).
    public var isDocument: Bool { !segments.isEmpty && segments.count % 2 == 0 }
    /// True when the path names a collection (odd number of segments).
    public var isCollection: Bool { segments.count % 2 == 1 }
    /// The last segment: the document or collection id.
    public var lastSegment: String { segments.last ?? "" }
    /// The path without its last segment.
    public var parent: ResourcePath { ResourcePath(Array(segments.dropLast())) }
    /// The path with `segment` appended.
    public func appending(_ segment: String) -> ResourcePath { ResourcePath(segments + [segment]) }
    /// True when `self` is a strict ancestor of `other` or equal to it.
    public func isPrefix(of other: ResourcePath) -> Bool {
        segments.count <= other.segments.count && zip(segments, other.segments).allSatisfy { bytesEqual($0, $1) }
    }
    /// Slash-joined relative path, `"rooms/r1"`.
    public var relativeString: String { segments.joined(separator: "/") }
    public var description: String { relativeString }

    /// Equal when every segment has the same UTF-8 bytes (ids are never Unicode-normalized).
    public static func == (lhs: ResourcePath, rhs: ResourcePath) -> Bool { bytesEqual(lhs.segments, rhs.segments) }

    /// Hashes the segments' bytes, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        for s in segments { hasher.combine(ExactName(s)) }
    }

    /// Segment-wise order as Firestore orders document keys (`__name__`).
    public static func < (lhs: ResourcePath, rhs: ResourcePath) -> Bool {
        for (a, b) in zip(lhs.segments, rhs.segments) {
            let c = compareSegments(a, b)
            if c != .equal { return c == .less }
        }
        return lhs.segments.count < rhs.segments.count
    }

    /// Validates the segments as collection/document ids.
    /// - Throws: `.invalidArgument` for empty ids, `.`/`..`, `/` inside a segment,
    ///   reserved `__…__` ids, ids over 1,500 bytes, a path deeper than 100 levels, or a name
    ///   whose size (`DocumentLimits.nameSize`) is over 6,144 bytes.
    /// Source: docs/reference/firestore-wire.md §1.10; https://firebase.google.com/docs/firestore/quotas ("Maximum
    /// size for a document name: 6 KiB"), https://firebase.google.com/docs/firestore/storage-size.
    public func validateIDs() throws(FirestoreError) {
        if segments.count > 200 { throw .invalidArgument("Document path is too deep: \(relativeString)") }
        for s in segments {
            if s.isEmpty { throw .invalidArgument("Path \(relativeString) has an empty segment.") }
            if s == "." || s == ".." { throw .invalidArgument("Path segment \"\(s)\" is not allowed: \(relativeString)") }
            if s.contains("/") { throw .invalidArgument("Path segment contains '/': \(s)") }
            if s.utf8.count > 1500 { throw .invalidArgument("Path segment longer than 1500 bytes.") }
            if s.hasPrefix("__") && s.hasSuffix("__") && s.utf8.count >= 4 && numericID(s) == nil {
                throw .invalidArgument("Document or collection id \"\(s)\" is reserved (__.*__).")
            }
        }
        let nameSize = DocumentLimits.nameSize(of: self)
        if nameSize > DocumentLimits.maxDocumentNameBytes {
            throw .invalidArgument(
                "The document name size (\(DocumentLimits.grouped(nameSize)) bytes) exceeds the maximum of 6,144 bytes.")
        }
    }
}

/// A database: project id plus database id (`(default)` unless named).
public struct DatabaseID: Sendable, Hashable, CustomStringConvertible {
    /// The project id, e.g. `demo-shouts`.
    public var project: String
    /// The database id, normally `(default)`.
    public var database: String

    /// Creates a database id.
    public init(project: String, database: String = "(default)") {
        self.project = project
        self.database = database
    }

    /// `projects/{p}/databases/{d}`.
    public var name: String { "projects/\(project)/databases/\(database)" }
    /// `projects/{p}/databases/{d}/documents`.
    public var documentsRoot: String { name + "/documents" }
    public var description: String { name }

    /// The full resource name of `path` (`projects/p/databases/d/documents/rooms/r1`).
    public func resourceName(_ path: ResourcePath) -> String {
        // One allocation: this names every document of every answer.
        var name = documentsRoot
        name.reserveCapacity(name.utf8.count + path.segments.reduce(0) { $0 + $1.utf8.count + 1 })
        for segment in path.segments {
            name.append("/")
            name.append(segment)
        }
        return name
    }

    /// Parses a full name under this database's documents root into a relative path.
    /// - Throws: `.invalidArgument` when the name is not under `documentsRoot`.
    public func path(fromName name: String) throws(FirestoreError) -> ResourcePath {
        // `documentsRoot` and the `/` after it matched byte by byte, piece by piece, without
        // building the root: every document name of every request comes through here.
        let utf8 = name.utf8
        var i = utf8.startIndex
        func take(_ piece: String.UTF8View) -> Bool {
            for byte in piece {
                guard i < utf8.endIndex, utf8[i] == byte else { return false }
                i = utf8.index(after: i)
            }
            return true
        }
        guard take("projects/".utf8), take(project.utf8), take("/databases/".utf8), take(database.utf8), take("/documents".utf8),
            i == utf8.endIndex || take("/".utf8)
        else { throw .invalidArgument("Name \"\(name)\" is not in database \"\(self.name)\".") }
        if i == utf8.endIndex { return .root }
        let path = ResourcePath(relative: String(name[i...]))
        try path.validateIDs()
        return path
    }

    /// Parses a full document name.
    /// - Throws: `.invalidArgument` when it is not a document under this database.
    public func documentPath(fromName name: String) throws(FirestoreError) -> ResourcePath {
        let p = try path(fromName: name)
        guard p.isDocument else {
            throw .invalidArgument("Document name \"\(name)\" has odd number of segments.")
        }
        return p
    }
}
