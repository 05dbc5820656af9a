/// The SQLite schema of the document store, version 3.
///
/// - `databases`: one row per Firestore database (`projects/p/databases/d`), so other tables
///   carry a small integer instead of the name.
/// - `documents`: one row per document. `path` is `OrderedKey.path` of the document path, so
///   BLOB order (memcmp) is `__name__` order and a subtree is one key range; `parent` is the
///   key of the parent collection (listing a collection = a range of `documents_by_parent`);
///   `collection_id` serves collection-group scans (`documents_by_group`). `fields` holds
///   `FieldsCodec` bytes. A rowid table, because `fields` can be up to 1 MiB.
/// - `field_indexes`: the single-field indexes built so far (on demand, see
///   `SQLiteDocumentStore`), per database, collection id, field, kind (whole value or array
///   element) and scope (one parent collection or the whole collection group).
/// - `index_entries`: `(index_id, parent, value, path)`; `parent` is the parent collection's
///   key for collection scope and empty for group scope, `value` is `OrderedKey.value`. The
///   primary key is the scan order, so a range query is one b-tree range walk.
/// - `composite_definitions`: the composite indexes defined per project
///   (`defineCompositeIndexes`), each as collection id, scope, `CompositeIndex.encodedFields`
///   of its normalised fields and its position in the definition; a database created later
///   gets them too.
/// - `composite_indexes`: the composite indexes built per database row (same columns), whose
///   entries every commit maintains.
/// - `composite_entries`: `(index_id, parent, key, path)`; `parent` as in `index_entries`,
///   `key` the concatenated components of `CompositeIndex.entryKeys` (ending with the
///   document name, so unique), `path` the document's key for the join to `documents`. The
///   primary key is the scan order of every query the index serves.
/// - `document_versions`: the history behind point-in-time reads. When a commit replaces or
///   deletes a document, the version it ends moves here with `end_*` = that commit's time, so
///   the version was the document's state for `update_time <= t < end_time`; `documents`
///   holds each path's open-ended latest version. Rows are appended in commit order, so rowid
///   order is `end_time` order and garbage collection deletes a prefix of the table.
///   Indexed by path only (point reads, collections, subtrees): a collection-group read at a
///   read time scans the database's archived versions, which the retention window bounds.
///   Each index is one more B-tree write per replaced document; a second one (by collection
///   id) cost about a fifth of the replacement throughput.
/// - `history_horizons`: per database row id, the time before which its history is gone (its
///   latest clear or import); row 0 holds the horizon of every database (the upgrade from
///   version 1, or the first open that keeps versions after one that kept none).
/// - `meta`: the schema version, the last commit time (written in each commit's transaction)
///   and `keeps_versions` (whether the last open archived superseded versions).
///
/// Version 2 added `document_versions`, version 3 the three composite tables; older files are
/// upgraded in place on open (the new tables are created empty: a version 1 file had no
/// history, a version 2 file no composite index).
enum SQLiteSchema {
    /// Bumped when the layout changes; a store refuses a file with another version.
    static let version: Int64 = 3
    /// Older versions this code upgrades on open.
    static let upgradable: Set<Int64> = [1, 2]

    /// DDL run on every open (idempotent).
    static let create = """
        CREATE TABLE IF NOT EXISTS meta(
            key TEXT PRIMARY KEY,
            value INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS databases(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE
        );
        CREATE TABLE IF NOT EXISTS documents(
            id INTEGER PRIMARY KEY,
            db INTEGER NOT NULL,
            path BLOB NOT NULL,
            parent BLOB NOT NULL,
            collection_id TEXT NOT NULL,
            fields BLOB NOT NULL,
            create_seconds INTEGER NOT NULL,
            create_nanos INTEGER NOT NULL,
            update_seconds INTEGER NOT NULL,
            update_nanos INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX IF NOT EXISTS documents_by_path ON documents(db, path);
        CREATE INDEX IF NOT EXISTS documents_by_parent ON documents(db, parent, path);
        CREATE INDEX IF NOT EXISTS documents_by_group ON documents(db, collection_id, path);
        CREATE TABLE IF NOT EXISTS field_indexes(
            id INTEGER PRIMARY KEY,
            db INTEGER NOT NULL,
            collection_id TEXT NOT NULL,
            field BLOB NOT NULL,
            kind INTEGER NOT NULL,
            scope INTEGER NOT NULL,
            UNIQUE(db, collection_id, field, kind, scope)
        );
        CREATE TABLE IF NOT EXISTS index_entries(
            index_id INTEGER NOT NULL,
            parent BLOB NOT NULL,
            value BLOB NOT NULL,
            path BLOB NOT NULL,
            PRIMARY KEY(index_id, parent, value, path)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS composite_definitions(
            project TEXT NOT NULL,
            collection_id TEXT NOT NULL,
            scope INTEGER NOT NULL,
            fields BLOB NOT NULL,
            position INTEGER NOT NULL,
            PRIMARY KEY(project, collection_id, scope, fields)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS composite_indexes(
            id INTEGER PRIMARY KEY,
            db INTEGER NOT NULL,
            collection_id TEXT NOT NULL,
            scope INTEGER NOT NULL,
            fields BLOB NOT NULL,
            UNIQUE(db, collection_id, scope, fields)
        );
        CREATE TABLE IF NOT EXISTS composite_entries(
            index_id INTEGER NOT NULL,
            parent BLOB NOT NULL,
            key BLOB NOT NULL,
            path BLOB NOT NULL,
            PRIMARY KEY(index_id, parent, key)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS document_versions(
            id INTEGER PRIMARY KEY,
            db INTEGER NOT NULL,
            path BLOB NOT NULL,
            parent BLOB NOT NULL,
            collection_id TEXT NOT NULL,
            fields BLOB NOT NULL,
            create_seconds INTEGER NOT NULL,
            create_nanos INTEGER NOT NULL,
            update_seconds INTEGER NOT NULL,
            update_nanos INTEGER NOT NULL,
            end_seconds INTEGER NOT NULL,
            end_nanos INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS document_versions_by_path ON document_versions(db, path);
        DROP INDEX IF EXISTS document_versions_by_group;
        CREATE TABLE IF NOT EXISTS history_horizons(
            db INTEGER PRIMARY KEY,
            seconds INTEGER NOT NULL,
            nanos INTEGER NOT NULL
        );
        INSERT OR IGNORE INTO meta(key, value) VALUES('schema_version', 3);
        """

    /// Columns selected whenever a document is materialised, in `SQLiteRow` order.
    static let documentColumns =
        "d.path, d.fields, d.create_seconds, d.create_nanos, d.update_seconds, d.update_nanos"

    /// Copies the stored version of `(?1 db, ?2 path)` into `document_versions`, ended at
    /// `(?3, ?4)`, unless its update time is `(?5, ?6)` (a write that left it unchanged).
    static let archiveVersion = """
        INSERT INTO document_versions(db, path, parent, collection_id, fields, create_seconds, create_nanos,
                                      update_seconds, update_nanos, end_seconds, end_nanos)
        SELECT db, path, parent, collection_id, fields, create_seconds, create_nanos,
               update_seconds, update_nanos, ?3, ?4
        FROM documents WHERE db = ?1 AND path = ?2 AND (update_seconds, update_nanos) != (?5, ?6)
        """
}
