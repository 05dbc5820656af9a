import FirestoreModel

extension FirestoreProto {
    /// Decodes `TransactionOptions` (oneof mode: 2 read_only {2 read_time}, 3 read_write
    /// {1 retry_transaction}) to a `TransactionMode`; no mode set means read-write (as for an absent message).
    static func decodeTransactionOptions(_ reader: ProtoReader) throws(ProtoWireError) -> TransactionMode {
        var r = reader
        var options = TransactionMode.readWrite(retryTransaction: nil)
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (2, .len):
                var ro = try r.readSubmessage()
                var readTime: Timestamp?
                while let t = try ro.readTag() {
                    if t.fieldNumber == 2 && t.wireType == .len {
                        readTime = try within("read_only.read_time") { () throws(ProtoWireError) in try decodeTimestamp(ro.readSubmessage()) }
                    } else {
                        try ro.skipField(t)
                    }
                }
                options = .readOnly(readTime: readTime)
            case (3, .len):
                var rw = try r.readSubmessage()
                var retry: [UInt8]?
                while let t = try rw.readTag() {
                    if t.fieldNumber == 1 && t.wireType == .len {
                        let id = try rw.readBytes()
                        retry = id.isEmpty ? nil : id
                    } else {
                        try rw.skipField(t)
                    }
                }
                options = .readWrite(retryTransaction: retry)
            default: try r.skipField(tag)
            }
        }
        return options
    }

    /// Accumulates a request's consistency selector: each request numbers the arms differently.
    struct ConsistencyFields {
        /// Field number of `transaction` (bytes).
        var transaction: Int?
        /// Field number of `new_transaction` (TransactionMode).
        var newTransaction: Int?
        /// Field number of `read_time` (Timestamp).
        var readTime: Int?

        /// Reads `tag` into `selector` when it is one of the arms; returns false otherwise.
        func read(_ tag: ProtoTag, from r: inout ProtoReader, into selector: inout ReadConsistency) throws(ProtoWireError) -> Bool {
            guard tag.wireType == .len else { return false }
            switch tag.fieldNumber {
            case transaction: selector = .transaction(try r.readBytes())
            case newTransaction:
                selector = .newTransaction(
                    try within("new_transaction") { () throws(ProtoWireError) in try decodeTransactionOptions(r.readSubmessage()) })
            case readTime:
                selector = .readTime(try within("read_time") { () throws(ProtoWireError) in try decodeTimestamp(r.readSubmessage()) })
            default: return false
            }
            return true
        }
    }
}
