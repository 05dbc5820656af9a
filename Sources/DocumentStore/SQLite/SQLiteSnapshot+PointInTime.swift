import FirestoreModel

/// Point-in-time reads: the versions a `SQLiteSnapshot` with a `readTime` sees.
///
/// A path's version at time `t` is its latest version when that was updated at or before `t`,
/// else the archived version with `update_time <= t < end_time` (at most one: a path's
/// versions cover disjoint intervals). Source: Firestore v1 `read_time` ("reads documents as
/// they were at the given time"); issue 10 §2.
extension SQLiteSnapshot {
    /// Which paths a version read covers.
    enum VersionScope {
        /// One document.
        case path([UInt8])
        /// The direct children of a collection.
        case children(of: ResourcePath)
        /// Every document below a path (a collection or document; the root for all).
        case descendants(of: ResourcePath)
        /// Every document with this collection id below a path (a collection group).
        case group(collectionID: String, under: ResourcePath)
    }

    /// The versions visible at `readTime` in `scope`, in no particular order.
    /// - Parameters:
    ///   - includeLatest: false to read archived versions only (a query reads the latest ones
    ///     through its index plan).
    ///   - keep: when given, a row is decoded only if `keep(path, fields bytes)` is true.
    /// - Throws: `.internalError` on storage failure or corrupt rows.
    func versions(
        at readTime: Timestamp, in database: DatabaseID, _ scope: VersionScope, includeLatest: Bool = true,
        keep: ((ResourcePath, UnsafeRawBufferPointer) throws(FirestoreError) -> Bool)? = nil
    ) throws(FirestoreError) -> [Document] {
        try reading { connection in
            guard let db = try databaseRowID(database, connection) else { return [] }
            let (condition, binds) = Self.sql(scope)
            let visible = "(d.update_seconds, d.update_nanos) <= (?2, ?3)"
            var parts = [
                """
                SELECT \(SQLiteSchema.documentColumns) FROM document_versions AS d
                WHERE d.db = ?1 AND \(condition) AND \(visible) AND (d.end_seconds, d.end_nanos) > (?2, ?3)
                """
            ]
            if includeLatest {
                parts.append(
                    "SELECT \(SQLiteSchema.documentColumns) FROM documents AS d WHERE d.db = ?1 AND \(condition) AND \(visible)")
            }
            let select = try connection.prepare(parts.joined(separator: "\nUNION ALL\n"))
            defer { select.reset() }
            try select.bind(db, at: 1)
            try select.bind(readTime.seconds, at: 2)
            try select.bind(Int64(readTime.nanos), at: 3)
            for (i, b) in binds.enumerated() {
                switch b {
                case .blob(let bytes): try select.bind(bytes, at: Int32(4 + i))
                case .text(let text): try select.bind(text, at: Int32(4 + i))
                }
            }
            var out: [Document] = []
            while try select.step() {
                if let keep, !(try keep(try OrderedKey.decodePath(select.blob(at: 0)), select.blob(at: 1))) { continue }
                out.append(try decodeDocument(select, from: 0))
            }
            return out
        }
    }

    /// The archived versions visible at `readTime` that `target` can return, decoding in full
    /// only those whose filtered and ordered fields (read alone from the stored bytes) pass
    /// the filter and the cursors: the rest cost one field extraction each.
    func archivedCandidates(_ target: QueryTarget, at readTime: Timestamp, in database: DatabaseID)
        throws(FirestoreError) -> [Document]
    {
        let query = target.query
        var fields = Set(query.normalizedOrderBy.map(\.field).filter { !$0.isDocumentKey })
        func collect(_ f: Filter) {
            switch f {
            case .field(let p, _, _), .unary(let p, _): if !p.isDocumentKey { fields.insert(p) }
            case .composite(_, let parts): parts.forEach(collect)
            }
        }
        if let filter = query.filter { collect(filter) }
        let referenced = Array(fields)
        let order = query.normalizedOrderBy
        return try versions(at: readTime, in: database, Self.scope(of: target), includeLatest: false) {
            (path, bytes) throws(FirestoreError) -> Bool in
            guard target.contains(path) else { return false }
            var partial: FieldMap = [:]
            for p in referenced {
                if let v = try FieldsCodec.value(at: p, in: bytes) { partial.setValue(v, at: p) }
            }
            let probe = Document(path: path, fields: partial, createTime: readTime, updateTime: readTime)
            return query.matches(probe, in: database) && query.withinCursors(probe, in: database, order: order)
        }
    }

    private enum Bind {
        case blob([UInt8])
        case text(String)
    }

    /// The WHERE condition of `scope` on alias `d`, with its parameters from `?4` on.
    private static func sql(_ scope: VersionScope) -> (String, [Bind]) {
        switch scope {
        case .path(let key):
            return ("d.path = ?4", [.blob(key)])
        case .children(let collection):
            let key = OrderedKey.path(collection)
            return (
                "d.path > ?4 AND d.path < ?5 AND d.parent = ?4",
                [.blob(key), .blob(OrderedKey.descendantsEnd(of: key))]
            )
        case .descendants(let parent):
            let key = OrderedKey.path(parent)
            return ("d.path > ?4 AND d.path < ?5", [.blob(key), .blob(OrderedKey.descendantsEnd(of: key))])
        case .group(let id, let parent):
            let key = OrderedKey.path(parent)
            return (
                "d.collection_id = ?4 AND d.path > ?5 AND d.path < ?6",
                [.text(id), .blob(key), .blob(OrderedKey.descendantsEnd(of: key))]
            )
        }
    }

    /// The scope of the documents `target` can return.
    static func scope(of target: QueryTarget) -> VersionScope {
        let query = target.query
        if !query.allDescendants { return .children(of: target.parent.appending(query.collectionID)) }
        if query.collectionID.isEmpty { return .descendants(of: target.parent) }
        return .group(collectionID: query.collectionID, under: target.parent)
    }
}
