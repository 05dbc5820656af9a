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
        var pageSize: Int?
        if let s = q["pageSize"] {
            guard let n = Int32(s) else { throw .invalidArgument("Invalid value at 'page_size' (TYPE_INT32), \"\(s)\"") }
            pageSize = Int(n)
        }
        let page = try DocumentListing.page(
            engine: engine, database: route.database, collection: route.path, pageSize: pageSize,
            pageToken: q["pageToken"], orderBy: q["orderBy"], showMissing: try q.bool("showMissing") ?? false,
            consistency: try q.consistency(), auth: auth)
        var members: [JSONValue.Member] = []
        if !page.items.isEmpty {
            members.append(.init("documents", .array(page.items.map { item in
                switch item {
                case .document(let d): return RESTCodec.encodeDocument(d.masked(mask), database: route.database)
                case .missing(let p): return .object(["name": .string(route.database.resourceName(p))])
                }
            })))
        }
        if let next = page.nextPageToken { members.append(.init("nextPageToken", .string(next))) }
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

import Foundation
import GoogleWire

/// Client-style automatic document ids: 20 characters of `[A-Za-z0-9]`.
enum AutoID {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A fresh random id.
    static func make() -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(rng.next(upperBound: UInt64(alphabet.count)))] })
    }
}
