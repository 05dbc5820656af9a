import FirestoreModel
import GoogleWire

/// `TransactionOptions` in proto3 JSON, decoded to the domain's `TransactionMode`.
/// Source: googleapis `common.proto`; docs/reference/firestore-wire.md §1.3.
extension RESTCodec {
    /// Decodes `{readOnly: {readTime?}} | {readWrite: {retryTransaction?}}`; `{}` = read-write.
    /// - Throws: `.invalidArgument` when both modes are set or a member is malformed.
    public static func decodeTransactionOptions(_ json: JSONValue, at path: String = "options")
        throws(FirestoreError) -> TransactionMode
    {
        var reader = try JSONObjectReader(json, at: path)
        let readOnly = reader.take("readOnly")
        let readWrite = reader.take("readWrite")
        try reader.finish()
        switch (readOnly, readWrite) {
        case (let r?, nil):
            var o = try JSONObjectReader(r, at: reader.child("readOnly"))
            let t = try o.take("readTime").map { (v) throws(FirestoreError) in try decodeTimestamp(v, at: o.child("readTime")) }
            try o.finish()
            return .readOnly(readTime: t)
        case (nil, let w?):
            var o = try JSONObjectReader(w, at: reader.child("readWrite"))
            let retry = try o.take("retryTransaction").map { (v) throws(FirestoreError) in try decodeBytes(v, at: o.child("retryTransaction")) }
            try o.finish()
            return .readWrite(retryTransaction: retry)
        case (nil, nil): return .readWrite(retryTransaction: nil)
        default: throw invalid(path, "transaction options may set readOnly or readWrite, not both.")
        }
    }
}
