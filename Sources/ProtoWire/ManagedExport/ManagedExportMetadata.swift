/// The two metadata files of a managed export, as the official emulator writes them
/// (`POST /emulator/v1/projects/{p}:export`, observed and recorded in
/// `Tests/Conformance/cli_export/`):
///
/// - `{name}.overall_export_metadata`, a LevelDB log (`LevelDBLog`) of two records: the
///   format version `"3"`, then a message whose field 1 holds, per exported kind group,
///   `{1: {1: 2, 3: 3}, 2: path of its .export_metadata (relative), 3: entity count,
///   4: bytes of its output files}`;
/// - `all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata`, one plain message:
///   `{1: {1: export name, 2: start, 3: end (microseconds since the epoch)}, 2: {1: "",
///   2: output file name (repeated)}}`.
///
/// Source: docs/reference/firestore-wire.md §2.5.
public enum ManagedExportMetadata {
    /// The overall file's version record.
    public static let version: [UInt8] = Array("3".utf8)

    /// One kind group of the overall file.
    public struct KindGroup: Sendable, Equatable {
        /// Path of its `.export_metadata`, relative to the overall file's directory.
        public var metadataPath: String
        /// Entities in its output files.
        public var entityCount: Int64
        /// Bytes of its output files.
        public var byteCount: Int64

        /// Creates a kind group entry.
        public init(metadataPath: String, entityCount: Int64, byteCount: Int64) {
            self.metadataPath = metadataPath
            self.entityCount = entityCount
            self.byteCount = byteCount
        }
    }

    /// The overall file's bytes.
    public static func overall(_ groups: [KindGroup]) -> [UInt8] {
        var log = LevelDBLog.Writer()
        log.append(version)
        var w = ProtoWriter()
        for g in groups {
            w.writeMessageField(1) { e in
                e.writeMessageField(1) { k in
                    k.writeUInt64Field(1, 2)
                    k.writeUInt64Field(3, 3)
                }
                e.writeStringField(2, g.metadataPath)
                e.writeInt64Field(3, g.entityCount)
                e.writeInt64Field(4, g.byteCount)
            }
        }
        log.append(w.bytes)
        return log.bytes
    }

    /// The kind groups an overall file lists.
    /// - Throws: `LevelDBLog.Failure` for a bad log; `ProtoWireError` for a bad message or a
    ///   version other than 3.
    public static func kindGroups(inOverall bytes: [UInt8]) throws -> [KindGroup] {
        let records = try LevelDBLog.records(in: bytes)
        guard let first = records.first, first == version, records.count >= 2 else {
            throw ProtoWireError(.invalidValue("not an overall export metadata file (version record \"3\" expected)"), offset: 0)
        }
        var groups: [KindGroup] = []
        for record in records.dropFirst() {
            var r = ProtoReader(record)
            while let tag = try r.readTag() {
                guard tag.fieldNumber == 1, tag.wireType == .len else {
                    try r.skipField(tag)
                    continue
                }
                var e = try r.readSubmessage()
                var g = KindGroup(metadataPath: "", entityCount: 0, byteCount: 0)
                while let t = try e.readTag() {
                    switch (t.fieldNumber, t.wireType) {
                    case (2, .len): g.metadataPath = try e.readString()
                    case (3, .varint): g.entityCount = try e.readInt64()
                    case (4, .varint): g.byteCount = try e.readInt64()
                    default: try e.skipField(t)
                    }
                }
                guard !g.metadataPath.isEmpty else {
                    throw ProtoWireError(.invalidValue("a kind group without its metadata path"), offset: e.offset)
                }
                groups.append(g)
            }
        }
        return groups
    }

    /// A kind group's `.export_metadata` bytes.
    /// - Parameters: `startMicros`/`endMicros` are microseconds since the epoch.
    public static func kind(exportName: String, startMicros: Int64, endMicros: Int64, outputFiles: [String]) -> [UInt8] {
        var w = ProtoWriter()
        w.writeMessageField(1) { h in
            h.writeStringField(1, exportName)
            h.writeInt64Field(2, startMicros)
            h.writeInt64Field(3, endMicros)
        }
        w.writeMessageField(2) { f in
            f.writeStringField(1, "")
            for name in outputFiles { f.writeStringField(2, name) }
        }
        return w.bytes
    }

    /// The output file names a kind group's `.export_metadata` lists (relative to its directory).
    /// - Throws: `ProtoWireError` for a malformed message or one that lists no file.
    public static func outputFiles(inKind bytes: [UInt8]) throws(ProtoWireError) -> [String] {
        var r = ProtoReader(bytes)
        var files: [String] = []
        while let tag = try r.readTag() {
            guard tag.fieldNumber == 2, tag.wireType == .len else {
                try r.skipField(tag)
                continue
            }
            var f = try r.readSubmessage()
            while let t = try f.readTag() {
                if t.fieldNumber == 2, t.wireType == .len { files.append(try f.readString()) } else { try f.skipField(t) }
            }
        }
        guard !files.isEmpty else { throw ProtoWireError(.invalidValue("the kind metadata lists no output file"), offset: 0) }
        return files
    }
}
