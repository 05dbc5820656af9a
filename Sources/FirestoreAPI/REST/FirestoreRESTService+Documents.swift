import FirestoreEngine
import FirestoreModel

extension FirestoreRESTService {
    /// GetDocument: `GET /v1/{name}` with `mask.fieldPaths`, `transaction` | `readTime`.
    func getDocument(_ route: RESTRoute, _ q: QueryParameters, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        let mask = try q.mask("mask.fieldPaths")
        let r = try engine.getDocument(route.path, in: route.database, consistency: try q.consistency(), auth: auth)
        return RESTCodec.encodeDocument(r.value.masked(mask), database: route.database)
    }

    /// ListDocuments: `GET /v1/{parent}/{collectionId}` with `pageSize`, `pageToken`, `orderBy`,
    /// `mask.fieldPaths`, `showMissing`, `transaction` | `readTime`.
    func listDocuments(_ route: RESTRoute, _ q: QueryParameters, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        let mask = try q.mask("mask.fieldPaths")
        let showMissing = try q.bool("showMissing") ?? false
        var pageSize: Int?
        if let s = q["pageSize"] {
            guard let n = Int32(s) else { throw .invalidArgument("Invalid value at 'page_size' (TYPE_INT32), \"\(s)\"") }
            pageSize = n > 0 ? Int(n) : nil
        }
        let orderBy = try ListOrder.parse(q["orderBy"])
        if showMissing && !orderBy.isEmpty {
            throw .invalidArgument("showMissing cannot be combined with orderBy.")
        }
        var members: [JSONValue.Member] = []
        if orderBy.isEmpty || orderBy == [Order(.documentKey, .ascending)] {
            var after: ResourcePath?
            if let token = q["pageToken"], !token.isEmpty {
                guard let bytes = Base64.decode(token), let name = String(validating: bytes, as: UTF8.self) else {
                    throw .invalidArgument("Invalid page token.")
                }
                after = try route.database.documentPath(fromName: name)
            }
            let r = try engine.listDocuments(
                in: route.path, database: route.database, pageSize: pageSize, after: after, showMissing: showMissing,
                consistency: try q.consistency(), auth: auth)
            if !r.value.documents.isEmpty {
                members.append(.init("documents", .array(r.value.documents.map { item in
                    switch item {
                    case .document(let d): return RESTCodec.encodeDocument(d.masked(mask), database: route.database)
                    case .missing(let p): return .object(["name": .string(route.database.resourceName(p))])
                    }
                })))
            }
            if let next = r.value.next {
                members.append(.init("nextPageToken", .string(Base64.encode(Array(route.database.resourceName(next).utf8)))))
            }
        } else {
            // Ordered listing runs as a query; the page token carries the offset.
            var offset = 0
            if let token = q["pageToken"], !token.isEmpty {
                guard let bytes = Base64.decode(token), let text = String(validating: bytes, as: UTF8.self),
                    text.hasPrefix("offset:"), let n = Int(text.dropFirst(7)), n >= 0
                else { throw .invalidArgument("Invalid page token.") }
                offset = n
            }
            let query = StructuredQuery(
                collectionID: route.path.lastSegment, orderBy: orderBy, offset: offset, limit: pageSize.map { $0 + 1 })
            let r = try engine.runQuery(
                QueryTarget(parent: route.path.parent, query: query), in: route.database,
                consistency: try q.consistency(), auth: auth)
            var docs = r.value.documents
            var more = false
            if let l = pageSize, docs.count > l {
                docs.removeLast(docs.count - l)
                more = true
            }
            if !docs.isEmpty {
                members.append(.init("documents", .array(docs.map { RESTCodec.encodeDocument($0.masked(mask), database: route.database) })))
            }
            if more {
                members.append(.init("nextPageToken", .string(Base64.encode(Array("offset:\(offset + docs.count)".utf8)))))
            }
        }
        return .object(members)
    }

    /// CreateDocument: `POST /v1/{parent}/{collectionId}?documentId=` with a `Document` body
    /// whose `name` is empty; ALREADY_EXISTS when the document exists.
    func createDocument(_ route: RESTRoute, _ q: QueryParameters, body: JSONValue, auth: AuthContext)
        throws(FirestoreError) -> JSONValue
    {
        let doc = try RESTCodec.decodeDocument(body, database: route.database, at: "document")
        if doc.path != nil { throw .invalidArgument("Document name must be empty when creating a document.") }
        let id = q["documentId"].flatMap { $0.isEmpty ? nil : $0 } ?? AutoID.make()
        let path = route.path.appending(id)
        try path.validateIDs()
        let mask = try q.mask("mask.fieldPaths")
        let write = Write(operation: .update(path: path, fields: doc.fields), currentDocument: .exists(false))
        let response = try engine.commit([write], in: route.database, auth: auth)
        guard let stored = response.documents[0] else {
            throw .internalError("Document \(path) vanished during its own creation.")
        }
        return RESTCodec.encodeDocument(stored.masked(mask), database: route.database)
    }

    /// UpdateDocument: `PATCH /v1/{name}` with `updateMask.fieldPaths` (absent = replace,
    /// present = merge those paths, deleting ones absent from the body), `mask.fieldPaths`,
    /// `currentDocument.*`. Creates a missing document unless `currentDocument.exists=true`.
    func updateDocument(_ route: RESTRoute, _ q: QueryParameters, body: JSONValue, auth: AuthContext)
        throws(FirestoreError) -> JSONValue
    {
        let doc = try RESTCodec.decodeDocument(body, database: route.database, at: "document")
        if let p = doc.path, p != route.path {
            throw .invalidArgument("Document name \"\(route.database.resourceName(p))\" does not match the URL.")
        }
        let updateMask: [FieldPath]?
        if q.items.contains(where: { $0.name == "updateMask.fieldPaths" }) {
            updateMask = try q.mask("updateMask.fieldPaths") ?? []
        } else {
            updateMask = nil
        }
        let mask = try q.mask("mask.fieldPaths")
        let write = Write(
            operation: .update(path: route.path, fields: doc.fields), updateMask: updateMask,
            currentDocument: try q.precondition())
        let response = try engine.commit([write], in: route.database, auth: auth)
        guard let stored = response.documents[0] else {
            throw .internalError("Document \(route.path) vanished during its own update.")
        }
        return RESTCodec.encodeDocument(stored.masked(mask), database: route.database)
    }

    /// DeleteDocument: `DELETE /v1/{name}` with `currentDocument.*`; `{}` even when missing.
    func deleteDocument(_ route: RESTRoute, _ q: QueryParameters, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        let write = Write(operation: .delete(route.path), currentDocument: try q.precondition())
        _ = try engine.commit([write], in: route.database, auth: auth)
        return .object([])
    }
}

extension Document {
    /// The document with only the fields under `mask` (nil = all fields).
    func masked(_ mask: [FieldPath]?) -> Document {
        guard let mask else { return self }
        var d = self
        d.fields = fields.projected(to: mask)
        return d
    }
}

/// Parses ListDocuments' `orderBy` (`"a desc, __name__"`).
enum ListOrder {
    static func parse(_ text: String?) throws(FirestoreError) -> [Order] {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        var out: [Order] = []
        for part in text.split(separator: ",") {
            let words = part.split(separator: " ", omittingEmptySubsequences: true)
            guard let field = words.first, words.count <= 2 else { throw .invalidArgument("Invalid orderBy: \(text)") }
            var dir = Direction.ascending
            if words.count == 2 {
                switch words[1].lowercased() {
                case "asc": dir = .ascending
                case "desc": dir = .descending
                default: throw .invalidArgument("Invalid orderBy direction: \(words[1])")
                }
            }
            out.append(Order(try RESTCodec.decodeFieldPath(String(field), at: "orderBy"), dir))
        }
        return out
    }
}

import Foundation

/// Client-style automatic document ids: 20 characters of `[A-Za-z0-9]`.
enum AutoID {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A fresh random id.
    static func make() -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(rng.next(upperBound: UInt64(alphabet.count)))] })
    }
}
