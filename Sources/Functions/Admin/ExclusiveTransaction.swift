import DocumentStore
import FirestoreEngine
import FirestoreModel

/// The handle `AdminClient.runExclusiveTransaction` passes to its body: reads of the latest
/// state (which nothing can change before the commit), writes buffered until the body returns.
///
/// Not `Sendable`: it lives only inside the body's synchronous call.
public final class ExclusiveTransaction {
    /// The client whose database is read and written.
    let client: AdminClient
    private let reads: ExclusiveReads
    private var buffered: WriteBatch
    private var wrote = false

    init(client: AdminClient, reads: ExclusiveReads) {
        self.client = client
        self.reads = reads
        self.buffered = WriteBatch(client: client)
    }

    /// Reads a document.
    /// - Throws: `.invalidArgument` after a write (reads must come first) or for a bad path.
    public func get(_ reference: DocumentReference) throws(FirestoreError) -> DocumentSnapshot {
        guard !wrote else { throw Transaction.readAfterWrite }
        let document = try reads.document(reference.path)
        return DocumentSnapshot(reference: reference, document: document, readTime: reads.readTime)
    }

    /// The documents of `collection` whose `field` lies in any of `ranges` (both ends
    /// inclusive) and that pass `filter`, each shown to `accept` as its id and the values at
    /// `select` (nil where missing); the non-nil results, in the order of the general queries
    /// `collection.order(by: field).start(at: [start]).end(at: [end])`, one per range, then
    /// post-filtered (a document in several ranges comes once per range).
    ///
    /// A geo query in one call: on the SQLite store a large answer is read from the stored
    /// bytes of the selected fields only (`RangeScan`).
    /// - Parameters:
    ///   - field, select: dotted field paths (`"geohash"`, `"a.b"`).
    ///   - filter: ANDed field comparisons read best; nil keeps every document in the ranges.
    /// - Throws: `.invalidArgument` after a write, for a bad path or field path; storage
    ///   errors; what `accept` throws.
    public func getRanges<T>(
        _ collection: CollectionReference, orderedBy field: String, ranges: [(start: Value, end: Value)],
        filter: Filter? = nil, select: [String],
        _ accept: (_ documentID: String, _ values: [Value?]) throws(FirestoreError) -> T?
    ) throws(FirestoreError) -> [T] {
        guard !wrote else { throw Transaction.readAfterWrite }
        var projection: [FieldPath] = []
        for s in select { projection.append(try FieldPath(parsing: s)) }
        let scan = RangeScan(
            collection: collection.path, field: try FieldPath(parsing: field),
            ranges: ranges.map { RangeScan.ValueRange(start: $0.start, end: $0.end) }, filter: filter,
            projection: projection)
        return try reads.scanRanges(scan) { (document) throws(FirestoreError) -> T? in
            try accept(document.documentID, document.values)
        }
    }

    /// Buffers a `set`.
    public func set(_ reference: DocumentReference, _ data: [String: FieldValue], merge: Bool = false) {
        wrote = true
        buffered.set(reference, data, merge: merge)
    }

    /// Buffers a `create`.
    public func create(_ reference: DocumentReference, _ data: [String: FieldValue]) {
        wrote = true
        buffered.create(reference, data)
    }

    /// The buffered writes.
    /// - Throws: the first encoding error.
    func writes() throws(FirestoreError) -> [Write] {
        try buffered.validated()
    }
}
