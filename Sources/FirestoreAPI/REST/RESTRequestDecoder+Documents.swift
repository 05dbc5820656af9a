import FirestoreModel
import FirestoreRPC
import GoogleWire

extension RESTRequestDecoder {
    /// GetDocument: `GET /v1/{name}` with `mask.fieldPaths`, `transaction` | `readTime`.
    func getDocument() throws(FirestoreError) -> GetDocumentRequest {
        let mask = try query.mask("mask.fieldPaths")
        return GetDocumentRequest(database: route.database, path: route.path, mask: mask, consistency: try query.consistency())
    }

    /// ListDocuments: `GET /v1/{parent}/{collectionId}` with `pageSize`, `pageToken`, `orderBy`,
    /// `mask.fieldPaths`, `showMissing`, `transaction` | `readTime`.
    func listDocuments() throws(FirestoreError) -> ListDocumentsRequest {
        let mask = try query.mask("mask.fieldPaths")
        var pageSize: Int32 = 0
        if let s = query["pageSize"] {
            guard let n = Int32(s) else { throw .invalidArgument("Invalid value at 'page_size' (TYPE_INT32), \"\(s)\"") }
            pageSize = n
        }
        let showMissing = try query.bool("showMissing") ?? false
        return ListDocumentsRequest(
            database: route.database, parent: route.path.parent, collectionID: route.path.lastSegment, pageSize: pageSize,
            pageToken: query["pageToken"] ?? "", orderBy: query["orderBy"] ?? "", mask: mask,
            consistency: try query.consistency(), showMissing: showMissing)
    }

    /// CreateDocument: `POST /v1/{parent}/{collectionId}?documentId=` with a `Document` body
    /// whose `name` is empty (an empty or absent `documentId` asks for an automatic id).
    /// - Throws: `.invalidArgument` when the body names the document.
    func createDocument() throws(FirestoreError) -> CreateDocumentRequest {
        let document = try RESTCodec.decodeDocument(try body(), database: route.database, at: "document")
        if document.path != nil { throw .invalidArgument("Document name must be empty when creating a document.") }
        let id = query["documentId"] ?? ""
        return CreateDocumentRequest(
            database: route.database, parent: route.path.parent, collectionID: route.path.lastSegment, documentID: id,
            fields: document.fields, mask: try query.mask("mask.fieldPaths"))
    }

    /// UpdateDocument: `PATCH /v1/{name}` with `updateMask.fieldPaths` (absent = replace,
    /// present = merge those paths, deleting ones absent from the body), `mask.fieldPaths`,
    /// `currentDocument.*`. Creates a missing document unless `currentDocument.exists=true`.
    /// - Throws: `.invalidArgument` when the body names another document.
    func updateDocument() throws(FirestoreError) -> UpdateDocumentRequest {
        let document = try RESTCodec.decodeDocument(try body(), database: route.database, at: "document")
        if let p = document.path, p != route.path {
            throw .invalidArgument("Document name \"\(route.database.resourceName(p))\" does not match the URL.")
        }
        let updateMask: [FieldPath]?
        if query.items.contains(where: { $0.name == "updateMask.fieldPaths" }) {
            updateMask = try query.mask("updateMask.fieldPaths") ?? []
        } else {
            updateMask = nil
        }
        let mask = try query.mask("mask.fieldPaths")
        return UpdateDocumentRequest(
            database: route.database, path: route.path, fields: document.fields, updateMask: updateMask, mask: mask,
            currentDocument: try query.precondition())
    }

    /// DeleteDocument: `DELETE /v1/{name}` with `currentDocument.*`.
    func deleteDocument() throws(FirestoreError) -> DeleteDocumentRequest {
        DeleteDocumentRequest(database: route.database, path: route.path, currentDocument: try query.precondition())
    }
}
