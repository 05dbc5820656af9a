/// An ordered list of HTTP header fields, as received or as to be sent.
///
/// Field names keep the case they were given in; every lookup compares names
/// case-insensitively (RFC 9110 §5.1). Order and repetition are preserved, so
/// `Set-Cookie`-style repeated fields survive a round trip. Lookups are O(n) in the
/// number of fields, which is small for real requests.
public struct HTTPHeaders: Sendable, Sequence, Equatable, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field: its name as written and its value with surrounding whitespace removed.
    public typealias Element = (name: String, value: String)

    private var fields: [Element]

    /// An empty header list.
    public init() { fields = [] }

    /// A header list holding `fields` in the given order.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// A header list from a literal such as `["content-type": "text/plain"]`, in literal order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, counting repeated names separately.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field named `name` (case-insensitive), or `nil` if there is none.
    ///
    /// Use ``values(_:)`` for fields that may repeat.
    public subscript(_ name: String) -> String? {
        fields.first { ASCII.equalsIgnoringCase($0.name, name) }?.value
    }

    /// All values of fields named `name` (case-insensitive), in the order they appear.
    public func values(_ name: String) -> [String] {
        fields.filter { ASCII.equalsIgnoringCase($0.name, name) }.map(\.value)
    }

    /// Whether at least one field is named `name` (case-insensitive).
    public func contains(_ name: String) -> Bool {
        fields.contains { ASCII.equalsIgnoringCase($0.name, name) }
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces the value of the first field named `name` in place and removes later
    /// fields of that name; appends the field if there was none.
    public mutating func replaceOrAdd(_ name: String, _ value: String) {
        guard let first = fields.firstIndex(where: { ASCII.equalsIgnoringCase($0.name, name) }) else {
            fields.append((name: name, value: value))
            return
        }
        fields[first].value = value
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if ASCII.equalsIgnoringCase(fields[index].name, name) {
                fields.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// Removes every field named `name` (case-insensitive).
    public mutating func remove(_ name: String) {
        fields.removeAll { ASCII.equalsIgnoringCase($0.name, name) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    /// Two header lists are equal when they hold the same fields in the same order;
    /// names compare case-insensitively, values exactly.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy {
                ASCII.equalsIgnoringCase($0.name, $1.name) && $0.value == $1.value
            }
    }

    /// The fields one per line as `name: value`, for logs and test failure messages.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
