/// A name compared, hashed and ordered by its UTF-8 bytes: a document id, collection id, field
/// name or map key.
///
/// Swift's `String` compares by Unicode canonical equivalence, so `"é"` (U+00E9) equals
/// `"e\u{301}"` and a `FieldMap` keeps only one of them. Firestore never normalizes
/// names: they are two documents, two collections, two fields. Every table keyed by a name
/// uses this type (or `ExactNameDictionary`) so no name is merged with another.
/// Source: docs/reference/firestore-wire.md §1.7 (strings order by UTF-8 bytes); issue 23 item 3.
public struct ExactName: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as a string (its bytes are what counts).
    public var string: String

    /// Wraps `string`.
    @inlinable public init(_ string: String) { self.string = string }

    /// Wraps a literal.
    @inlinable public init(stringLiteral value: String) { self.string = value }

    public var description: String { string }

    /// Equal when the UTF-8 bytes are equal.
    public static func == (lhs: ExactName, rhs: ExactName) -> Bool { bytesEqual(lhs.string, rhs.string) }

    /// Hashes the UTF-8 bytes and a terminator byte that UTF-8 never contains, so a sequence of
    /// names hashes injectively.
    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = string.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil {
            for byte in string.utf8 { hasher.combine(byte) }
        }
        hasher.combine(UInt8(0xFF))
    }

    /// Byte order (UTF-8), as Firestore orders strings and names.
    public static func < (lhs: ExactName, rhs: ExactName) -> Bool { compareUTF8(lhs.string, rhs.string) == .less }
}

/// True when `a` and `b` have the same UTF-8 bytes (Swift's `==` on `String` is canonical
/// equivalence, which Firestore names and string values never use).
@inlinable
public func bytesEqual(_ a: String, _ b: String) -> Bool {
    if let equal = a.utf8.withContiguousStorageIfAvailable({ x in
        b.utf8.withContiguousStorageIfAvailable { y in
            x.count == y.count && (x.count == 0 || memoryEqual(x.baseAddress!, y.baseAddress!, x.count))
        }
    }), let equal {
        return equal
    }
    return a.utf8.elementsEqual(b.utf8)
}

/// `count` bytes at `x` and `y` are equal.
@usableFromInline
func memoryEqual(_ x: UnsafePointer<UInt8>, _ y: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var i = 0
    while i < count {
        if x[i] != y[i] { return false }
        i += 1
    }
    return true
}

/// True when the arrays hold the same names byte for byte (paths' segments).
@inlinable
public func bytesEqual(_ a: [String], _ b: [String]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { bytesEqual($0, $1) }
}

/// A dictionary keyed by names compared byte for byte (`ExactName`), with `String` keys in its
/// interface: a map value's fields, a document's fields, a rules map's entries.
///
/// It reads like `[String: V]`: dictionary literals, `subscript(String)`, iteration as
/// `(key: String, value: V)`, `keys`, `values`, `count`, `mapValues`, `merging`. Iteration
/// order is unspecified, as `Dictionary`'s; `sortedByName()` gives UTF-8 order.
public struct ExactNameDictionary<V>: ExpressibleByDictionaryLiteral, Sequence {
    /// The entries.
    public var storage: [ExactName: V]

    /// An empty dictionary.
    @inlinable public init() { storage = [:] }

    /// An empty dictionary with room for `minimumCapacity` entries.
    @inlinable public init(minimumCapacity: Int) { storage = Dictionary(minimumCapacity: minimumCapacity) }

    /// Wraps a dictionary keyed by exact names.
    @inlinable public init(_ storage: [ExactName: V]) { self.storage = storage }

    /// From a literal; a repeated key (byte for byte) traps, as `Dictionary`'s literal does.
    public init(dictionaryLiteral elements: (String, V)...) {
        storage = Dictionary(uniqueKeysWithValues: elements.map { (ExactName($0.0), $0.1) })
    }

    /// From pairs whose keys are distinct byte for byte (traps otherwise, as `Dictionary`'s does).
    @inlinable
    public init<S: Sequence>(uniqueKeysWithValues pairs: S) where S.Element == (String, V) {
        storage = Dictionary(uniqueKeysWithValues: pairs.lazy.map { (ExactName($0.0), $0.1) })
    }

    /// From pairs, combining the values of equal keys with `combine`.
    @inlinable
    public init<S: Sequence>(_ pairs: S, uniquingKeysWith combine: (V, V) throws -> V) rethrows
    where S.Element == (String, V) {
        storage = try Dictionary(pairs.lazy.map { (ExactName($0.0), $0.1) }, uniquingKeysWith: combine)
    }

    /// The value for `key`, compared byte for byte; assigning `nil` removes it.
    @inlinable
    public subscript(key: String) -> V? {
        get { storage[ExactName(key)] }
        set { storage[ExactName(key)] = newValue }
        _modify { yield &storage[ExactName(key)] }
    }

    /// The value for `key`, or `defaultValue` (inserted on mutation).
    @inlinable
    public subscript(key: String, default defaultValue: @autoclosure () -> V) -> V {
        get { storage[ExactName(key), default: defaultValue()] }
        _modify { yield &storage[ExactName(key), default: defaultValue()] }
    }

    /// The number of entries.
    @inlinable public var count: Int { storage.count }
    /// True when there are no entries.
    @inlinable public var isEmpty: Bool { storage.isEmpty }
    /// The keys, in iteration order.
    @inlinable public var keys: LazyMapSequence<Dictionary<ExactName, V>.Keys, String> {
        storage.keys.lazy.map(\.string)
    }
    /// The values, in iteration order.
    @inlinable public var values: Dictionary<ExactName, V>.Values { storage.values }
    /// Room reserved for entries.
    @inlinable public mutating func reserveCapacity(_ n: Int) { storage.reserveCapacity(n) }

    /// Sets `value` for `key`; returns the value replaced, if any.
    @inlinable @discardableResult
    public mutating func updateValue(_ value: V, forKey key: String) -> V? {
        storage.updateValue(value, forKey: ExactName(key))
    }

    /// Removes `key`; returns its value, if any.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: String) -> V? { storage.removeValue(forKey: ExactName(key)) }

    /// Removes every entry.
    @inlinable public mutating func removeAll() { storage.removeAll() }

    /// The same keys with transformed values.
    @inlinable
    public func mapValues<T>(_ transform: (V) throws -> T) rethrows -> ExactNameDictionary<T> {
        ExactNameDictionary<T>(try storage.mapValues(transform))
    }

    /// The same keys with the non-nil transformed values.
    @inlinable
    public func compactMapValues<T>(_ transform: (V) throws -> T?) rethrows -> ExactNameDictionary<T> {
        ExactNameDictionary<T>(try storage.compactMapValues(transform))
    }

    /// The entries for which `isIncluded` holds.
    @inlinable
    public func filter(_ isIncluded: ((key: String, value: V)) throws -> Bool) rethrows -> ExactNameDictionary {
        ExactNameDictionary(try storage.filter { try isIncluded((key: $0.key.string, value: $0.value)) })
    }

    /// Adds `other`'s entries, combining values of equal keys with `combine`.
    @inlinable
    public mutating func merge(_ other: ExactNameDictionary, uniquingKeysWith combine: (V, V) throws -> V)
        rethrows
    {
        try storage.merge(other.storage, uniquingKeysWith: combine)
    }

    /// `self` with `other`'s entries added, combining values of equal keys with `combine`.
    @inlinable
    public func merging(_ other: ExactNameDictionary, uniquingKeysWith combine: (V, V) throws -> V)
        rethrows -> ExactNameDictionary
    {
        ExactNameDictionary(try storage.merging(other.storage, uniquingKeysWith: combine))
    }

    /// The entries in UTF-8 order of their keys (how Firestore orders map keys).
    public func sortedByName() -> [(key: String, value: V)] {
        storage.sorted { $0.key < $1.key }.map { (key: $0.key.string, value: $0.value) }
    }

    /// The keys in UTF-8 order.
    public func sortedKeys() -> [String] { storage.keys.sorted().map(\.string) }

    /// Iterates `(key, value)` pairs in unspecified order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var base: Dictionary<ExactName, V>.Iterator
        @inlinable init(_ base: Dictionary<ExactName, V>.Iterator) { self.base = base }
        @inlinable public mutating func next() -> (key: String, value: V)? {
            base.next().map { (key: $0.key.string, value: $0.value) }
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(storage.makeIterator()) }
    @inlinable public var underestimatedCount: Int { storage.count }
}

extension ExactNameDictionary: Sendable where V: Sendable {}
extension ExactNameDictionary: Equatable where V: Equatable {}
extension ExactNameDictionary: Hashable where V: Hashable {}

extension ExactNameDictionary: CustomStringConvertible {
    public var description: String {
        "[" + sortedByName().map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "]"
    }
}

/// A document's or map value's fields: field name → value, names compared byte for byte.
public typealias FieldMap = ExactNameDictionary<Value>
