import FirestoreEngine
import FirestoreModel
import FirestoreRPC

/// ListDocuments for both adapters: name-ordered pages through the engine's listing (page
/// token = base64 of the last name), other orders through a query (page token = offset).
/// Source: Firestore REST v1 / gRPC ListDocuments; docs/reference/firestore-wire.md §1.3.
enum DocumentListing {
    /// One page of `request`'s collection: at most `pageSize` entries (≤ 0 = all), after the
    /// `pageToken` of the previous page ("" = the first), in `orderBy` order (`"a desc, __name__"`;
    /// "" = `__name__` ascending). The entries are not masked.
    /// - Throws: `.invalidArgument` for a bad token or order, `showMissing` with `orderBy`;
    ///   as `FirestoreEngine.listDocuments` / `runQuery` otherwise.
    static func page(_ request: ListDocumentsRequest, engine: FirestoreEngine, auth: AuthContext)
        throws(FirestoreError) -> (items: [ListedDocument], nextPageToken: String?)
    {
        let (database, collection, consistency) = (request.database, request.collection, request.consistency)
        let limit = request.pageSize > 0 ? Int(request.pageSize) : nil
        let token = request.pageToken.isEmpty ? nil : request.pageToken
        let showMissing = request.showMissing
        let order = try ListOrder.parse(request.orderBy)
        if showMissing && !order.isEmpty { throw .invalidArgument("showMissing cannot be combined with orderBy.") }
        if order.isEmpty || order == [Order(.documentKey, .ascending)] {
            var after: ResourcePath?
            if let token {
                guard let bytes = Base64.decode(token), let name = String(validating: bytes, as: UTF8.self) else {
                    throw .invalidArgument("Invalid page token.")
                }
                after = try database.documentPath(fromName: name)
            }
            let r = try engine.listDocuments(
                in: collection, database: database, pageSize: limit, after: after, showMissing: showMissing,
                consistency: consistency, auth: auth)
            return (r.value.documents, r.value.next.map { Base64.encode(Array(database.resourceName($0).utf8)) })
        }
        var offset = 0
        if let token {
            guard let bytes = Base64.decode(token), let text = String(validating: bytes, as: UTF8.self),
                text.hasPrefix("offset:"), let n = Int(text.dropFirst(7)), n >= 0
            else { throw .invalidArgument("Invalid page token.") }
            offset = n
        }
        let query = StructuredQuery(collectionID: collection.lastSegment, orderBy: order, offset: offset, limit: limit.map { $0 + 1 })
        let r = try engine.runQuery(
            QueryTarget(parent: collection.parent, query: query), in: database, consistency: consistency, auth: auth)
        var docs = r.value.documents
        var next: String?
        if let l = limit, docs.count > l {
            docs.removeLast(docs.count - l)
            next = Base64.encode(Array("offset:\(offset + docs.count)".utf8))
        }
        return (docs.map(ListedDocument.document), next)
    }
}

/// Parses ListDocuments' `orderBy` (`"a desc, __name__"`; blank = no order).
enum ListOrder {
    static func parse(_ text: String) throws(FirestoreError) -> [Order] {
        guard !text.trimmingASCII().isEmpty else { return [] }
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

import FoundationEssentials
import GoogleWire
