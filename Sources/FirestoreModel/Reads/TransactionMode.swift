/// How a transaction is begun: the `TransactionOptions` of BeginTransaction and of a read's
/// `new_transaction`. Source: googleapis `google/firestore/v1/common.proto` TransactionOptions.
public enum TransactionMode: Sendable, Hashable {
    /// Reads and writes; `retryTransaction` names the aborted transaction this one retries
    /// (nil when absent or empty).
    case readWrite(retryTransaction: [UInt8]?)
    /// Reads only, optionally at a fixed read time.
    case readOnly(readTime: Timestamp?)
}
