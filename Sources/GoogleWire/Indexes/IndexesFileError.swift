/// A `firestore.indexes.json` that Hearth cannot use: where and what.
///
/// `description` is `file:line:column: message`, as compilers print diagnostics
/// (`firestore.indexes.json:12:18: indexes[0].fields[1].order must be "ASCENDING" or
/// "DESCENDING"`). The position is that of the offending value (or of the object that lacks
/// a member, or where the JSON stopped being valid); an error about the whole file (it cannot
/// be read) has line 0 and prints as `file: message`.
public struct IndexesFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file name shown (`firestore.indexes.json` unless the caller names another).
    public var fileName: String
    /// 1-based line; 0 when the error concerns the whole file.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// What is wrong, naming the value by its path (`indexes[0].queryScope`).
    public var message: String

    /// Creates an error.
    public init(fileName: String, line: Int, column: Int, message: String) {
        self.fileName = fileName
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, or `file: message` for the whole file.
    public var description: String { line > 0 ? "\(fileName):\(line):\(column): \(message)" : "\(fileName): \(message)" }
}
