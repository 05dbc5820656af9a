/// A Firestore value: one arm of `google.firestore.v1.Value`.
///
/// The engine, the rules and the store speak only this type; REST JSON and protobuf are
/// adapters at the edge. `==` is *identity* (same type, same bits: `1 != 1.0`, `NaN == NaN`,
/// `-0.0 != 0.0`) — what "the write changed nothing" needs. Firestore's query equality and
/// ordering live in `Value+Ordering.swift`.
///
/// Source: googleapis `google/firestore/v1/document.proto` (Value); docs/reference/firestore-wire.md §1.7.
public enum Value: Sendable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case double(Double)
    case timestamp(Timestamp)
    case string(String)
    case bytes([UInt8])
    /// A reference: the full resource name `projects/{p}/databases/{d}/documents/{path}`.
    case reference(String)
    case geoPoint(GeoPoint)
    case array([Value])
    case map(FieldMap)
}

/// A geographic point in degrees (WGS 84). Latitude −90…90, longitude −180…180.
public struct GeoPoint: Sendable, Hashable {
    /// Degrees north, −90…90.
    public var latitude: Double
    /// Degrees east, −180…180.
    public var longitude: Double

    /// Creates a point; callers validate ranges (`Value.validateForWrite`).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension Value: Hashable {
    /// Identity equality: same arm and same bits (doubles by bit pattern, maps by key set).
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.timestamp(let a), .timestamp(let b)): return a == b
        case (.string(let a), .string(let b)): return bytesEqual(a, b)
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.reference(let a), .reference(let b)): return a == b
        case (.geoPoint(let a), .geoPoint(let b)):
            return a.latitude.bitPattern == b.latitude.bitPattern && a.longitude.bitPattern == b.longitude.bitPattern
        case (.array(let a), .array(let b)): return a == b
        case (.map(let a), .map(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeOrder)
        switch self {
        case .null: break
        case .boolean(let b): hasher.combine(b)
        case .integer(let i): hasher.combine(i)
        case .double(let d): hasher.combine(d.isNaN ? Double.nan.bitPattern : d.bitPattern)
        case .timestamp(let t): hasher.combine(t)
        case .string(let s): hasher.combine(s)
        case .bytes(let b): hasher.combine(b)
        case .reference(let r): hasher.combine(r)
        case .geoPoint(let g): hasher.combine(g)
        case .array(let a): hasher.combine(a)
        case .map(let m): hasher.combine(m)
        }
    }
}

extension Value {
    /// The value's type name as Firestore reports it in errors and rules (`"int"`, `"string"`, …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .boolean: return "bool"
        case .integer: return "int"
        case .double: return "float"
        case .timestamp: return "timestamp"
        case .string: return "string"
        case .bytes: return "bytes"
        case .reference: return "path"
        case .geoPoint: return "latlng"
        case .array: return "list"
        case .map: return "map"
        }
    }

    /// True for `.integer` and `.double`.
    public var isNumber: Bool {
        switch self {
        case .integer, .double: return true
        default: return false
        }
    }

    /// True for a `.double` holding NaN.
    public var isNaN: Bool {
        if case .double(let d) = self { return d.isNaN }
        return false
    }
}
