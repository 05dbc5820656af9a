import FirestoreModel

/// `scanRanges` on the stored bytes: one pass over the collection's rows in
/// `documents_by_parent`, reading only the ranged, filtered and projected fields of each
/// (`FieldsCodec.value(at:in:)`), never a whole document.
///
/// Why a pass over the collection and not the field's index: a geo query's bounds cover
/// most of a neighbourhood, so its candidates are a large share of the collection, and one
/// index entry costs a point lookup of its document (about 1.4 µs warm, against 0.35 µs per
/// row of the pass, on the development machine; `sqlite3` over a bench store of 100,000
/// presence documents whose bounds held 96,552). So the pass is taken when there is no
/// index on the field, or when the index holds at least `selectiveCandidates` entries in the
/// ranges; otherwise — a selective query — and for collections over `maxScannedDocuments`
/// (found by the pass itself, which then stops), the general path (`scanRangesByQueries`)
/// answers on the index.
extension SQLiteSnapshot {
    /// Collections larger than this are left to the index (the pass would cost over ~50 ms).
    static let maxScannedDocuments = 131_072
    /// With an index, fewer candidates than this are read through it (≤ ~30 ms by lookups).
    static let selectiveCandidates = 4096

    /// The fast path described on this extension, or the general one.
    /// - Throws: as `StoreSnapshot.scanRanges`.
    func scanRanges<T>(
        _ scan: RangeScan, in database: DatabaseID, _ accept: (ProjectedDocument) throws(FirestoreError) -> T?
    ) throws(FirestoreError) -> [T] {
        guard readTime == nil, scan.collection.isCollection, !scan.field.isDocumentKey,
            let comparisons = Self.fieldComparisons(scan.filter),
            try !isSelective(scan, in: database)
        else { return try scanRangesByQueries(scan, in: database, accept) }
        let passed: [T]? = try reading { (connection) throws -> [T]? in
            guard let db = try databaseRowID(database, connection) else { return [] }
            return try pass(scan, comparisons: comparisons, db: db, connection, accept)
        }
        if let passed { return passed }
        return try scanRangesByQueries(scan, in: database, accept)
    }

    /// The filter as field comparisons to AND, or nil when it has another shape (OR, unary,
    /// `__name__`), which the general path then evaluates.
    static func fieldComparisons(_ filter: Filter?) -> [(field: FieldPath, op: FieldOperator, operand: Value)]? {
        switch filter {
        case nil: return []
        case .field(let p, let op, let operand)? where !p.isDocumentKey: return [(p, op, operand)]
        case .composite(.and, let filters)?:
            var out: [(field: FieldPath, op: FieldOperator, operand: Value)] = []
            for f in filters {
                guard let part = fieldComparisons(f) else { return nil }
                out += part
            }
            return out
        default: return nil
        }
    }

    /// True when the field has an index holding fewer than `selectiveCandidates` entries in
    /// the ranges (counted on the index alone, stopping at that many).
    private func isSelective(_ scan: RangeScan, in database: DatabaseID) throws(FirestoreError) -> Bool {
        try reading { (connection) throws -> Bool in
            guard let db = try databaseRowID(database, connection),
                let index = try indexRowID(
                    SingleFieldIndex(collectionID: scan.collection.lastSegment, field: scan.field), db: db, connection)
            else { return false }
            let count = try connection.prepare(
                """
                SELECT count(*) FROM (SELECT 1 FROM index_entries
                WHERE index_id = ?1 AND parent = ?2 AND value >= ?3 AND value <= ?4 LIMIT ?5)
                """)
            defer { count.reset() }
            let parent = OrderedKey.path(scan.collection)
            var seen = 0
            for range in scan.ranges where seen < Self.selectiveCandidates {
                count.reset()
                try count.bind(index, at: 1)
                try count.bind(parent, at: 2)
                try count.bind(OrderedKey.value(range.start), at: 3)
                try count.bind(OrderedKey.value(range.end), at: 4)
                try count.bind(Int64(Self.selectiveCandidates - seen), at: 5)
                if try count.step() { seen += Int(count.int64(at: 0)) }
            }
            return seen < Self.selectiveCandidates
        }
    }

    /// The ranges' bounds as UTF-8 when every bound is a string (a string value is then placed
    /// by its stored bytes, Firestore's string order), else nil (`Value.compare` places it).
    private static func stringRanges(_ ranges: [RangeScan.ValueRange]) -> [(start: [UInt8], end: [UInt8])]? {
        var out: [(start: [UInt8], end: [UInt8])] = []
        for range in ranges {
            guard case .string(let start) = range.start, case .string(let end) = range.end else { return nil }
            out.append((Array(start.utf8), Array(end.utf8)))
        }
        return out
    }

    /// One match of the pass: its place in the answer and what `accept` made of it.
    private struct Match<T> {
        /// Range index (4 bytes, big-endian), `OrderedKey.value` of the field, the path key:
        /// byte order is answer order.
        var key: [UInt8]
        var kept: T
    }

    /// The pass over the collection's rows; nil when it holds more than `maxScannedDocuments`.
    private func pass<T>(
        _ scan: RangeScan, comparisons: [(field: FieldPath, op: FieldOperator, operand: Value)], db: Int64,
        _ connection: SQLiteConnection, _ accept: (ProjectedDocument) throws(FirestoreError) -> T?
    ) throws(FirestoreError) -> [T]? {
        let parent = OrderedKey.path(scan.collection)
        // Locator indexes: 0 the ranged field, 1… the comparisons, then the projection.
        var locator = FieldsLocator([scan.field] + comparisons.map(\.field) + scan.projection)
        let projectionStart = 1 + comparisons.count
        var matches: [Match<T>] = []
        var containing: [Int] = []
        let stringRanges = Self.stringRanges(scan.ranges)
        do {
            let select = try connection.prepare(
                "SELECT path, fields, update_seconds, update_nanos FROM documents WHERE db = ?1 AND parent = ?2")
            defer { select.reset() }
            try select.bind(db, at: 1)
            try select.bind(parent, at: 2)
            var rows = 0
            var projected = ProjectedDocument(
                documentID: "", updateTime: Timestamp(seconds: 0, nanos: 0),
                values: Array(repeating: nil, count: scan.projection.count))
            rowLoop: while try select.step() {
                rows += 1
                if rows > Self.maxScannedDocuments { return nil }
                indexRowsRead += 1
                try locator.locate(select.blob(at: 1))
                containing.removeAll(keepingCapacity: true)
                var value: Value?
                if let stringRanges, let bytes = try locator.stringBytes(at: 0) {
                    // A string against string bounds: compared as UTF-8 bytes, no `String` built.
                    for (i, range) in stringRanges.enumerated()
                    where FieldsReader.compare(bytes, range.start) != .less && FieldsReader.compare(bytes, range.end) != .greater {
                        containing.append(i)
                    }
                } else {
                    value = try locator.value(at: 0)
                    guard let value else { continue }
                    for (i, range) in scan.ranges.enumerated()
                    where Value.compare(range.start, value) != .greater && Value.compare(value, range.end) != .greater {
                        containing.append(i)
                    }
                }
                if containing.isEmpty { continue }
                for (i, c) in comparisons.enumerated() {
                    guard let v = try locator.value(at: 1 + i), Filter.evaluate(v, c.op, c.operand) else { continue rowLoop }
                }
                let pathKey = select.blob(at: 0)
                projected.documentID = try OrderedKey.decodeSegment(pathKey, at: parent.count)
                projected.updateTime = Timestamp(
                    seconds: select.int64(at: 2), nanos: Int32(truncatingIfNeeded: select.int64(at: 3)))
                for i in scan.projection.indices { projected.values[i] = try locator.value(at: projectionStart + i) }
                var valueKey: [UInt8]?
                for range in containing {
                    guard let kept = try accept(projected) else { continue }
                    let r = UInt32(range)
                    var key: [UInt8] = [UInt8(r >> 24), UInt8(r >> 16 & 0xFF), UInt8(r >> 8 & 0xFF), UInt8(r & 0xFF)]
                    // Decoded for the documents kept only (the string case did not need it).
                    let encoded = try valueKey ?? OrderedKey.value(value ?? locator.value(at: 0) ?? .null)
                    valueKey = encoded
                    key.reserveCapacity(4 + encoded.count + pathKey.count)
                    key += encoded
                    key += pathKey
                    matches.append(Match(key: key, kept: kept))
                }
            }
        } catch let error as FirestoreError {
            throw error
        } catch {
            throw error.firestoreError
        }
        // Sorting the keys alone, then placing the results, moves no `T` during the sort.
        let keys = matches.map(\.key)
        let order = keys.indices.sorted { bytesLess(keys[$0], keys[$1]) }
        return order.map { matches[$0].kept }
    }
}
