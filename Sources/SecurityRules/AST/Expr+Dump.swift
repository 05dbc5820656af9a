/// S-expression dump of expression trees: what parser tests compare against.
///
/// `(&& (!= request.auth null) (== request.auth.uid userId))`: operators prefix, members
/// and identifiers dotted when the receiver is a plain name chain, literals as source.
extension Expr: CustomStringConvertible {
    /// The S-expression form.
    public var description: String { dump }

    /// The S-expression form.
    public var dump: String {
        switch kind {
        case .literal(let v): return v.literalText
        case .identifier(let n): return n
        case .list(let es): return "(list" + es.map { " " + $0.dump }.joined() + ")"
        case .map(let es): return "(map" + es.map { " (\($0.key.dump) \($0.value.dump))" }.joined() + ")"
        case .path(let parts):
            return "(path "
                + parts.map { part -> String in
                    switch part {
                    case .literal(let s): return "/" + s
                    case .interpolation(let e): return "/$(\(e.dump))"
                    }
                }.joined() + ")"
        case .unary(let op, let e): return "(\(op.rawValue) \(e.dump))"
        case .binary(let op, let a, let b): return "(\(op.rawValue) \(a.dump) \(b.dump))"
        case .logical(let op, let es): return "(\(op.rawValue)" + es.map { " " + $0.dump }.joined() + ")"
        case .ternary(let c, let a, let b): return "(?: \(c.dump) \(a.dump) \(b.dump))"
        case .member(let r, let f):
            if r.isNameChain { return r.dump + "." + f }
            return "(. \(r.dump) \(f))"
        case .index(let r, let i): return "([] \(r.dump) \(i.dump))"
        case .slice(let r, let a, let b): return "([:] \(r.dump) \(a?.dump ?? "_") \(b?.dump ?? "_"))"
        case .call(let f, let args): return "(\(f)" + args.map { " " + $0.dump }.joined() + ")"
        case .method(let r, let m, let args): return "(.\(m) \(r.dump)" + args.map { " " + $0.dump }.joined() + ")"
        case .isType(let e, let t): return "(is \(e.dump) \(t.rawValue))"
        }
    }

    /// True for `a`, `a.b`, `a.b.c`: printed dotted.
    var isNameChain: Bool {
        switch kind {
        case .identifier: return true
        case .member(let r, _): return r.isNameChain
        default: return false
        }
    }
}

extension RulesValue {
    /// The value written as a rules literal where one exists (`'s'`, `1`, `2.0`, `b'\x01'`,
    /// `[1, 2]`, `{'k': v}`), otherwise a readable form (`timestamp(2024-01-01T00:00:00Z)`).
    public var literalText: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let d): return RulesFormat.double(d)
        case .string(let s): return RulesFormat.quoted(s)
        case .bytes(let b): return "b'" + b.map { "\\x" + RulesFormat.hexByte($0) }.joined() + "'"
        case .list(let l): return "[" + l.map(\.literalText).joined(separator: ", ") + "]"
        case .map(let m):
            let body = m.sortedKeys.map { "\(RulesFormat.quoted($0)): \(m.entries[$0]?.literalText ?? "")" }
            if m.isPartial { return "{" + (body + ["…"]).joined(separator: ", ") + "}" }
            return "{" + body.joined(separator: ", ") + "}"
        case .set(let s): return "set(" + s.elements.map(\.literalText).joined(separator: ", ") + ")"
        case .mapDiff(let d): return "map_diff(\(RulesValue.map(d.left).literalText), \(RulesValue.map(d.right).literalText))"
        case .path(let p): return "path(\(p.description))"
        case .timestamp(let t): return "timestamp(\(t.rfc3339))"
        case .duration(let d): return "duration(\(d.seconds)s, \(d.nanos)ns)"
        case .latlng(let g): return "latlng(\(RulesFormat.double(g.latitude)), \(RulesFormat.double(g.longitude)))"
        case .constraint(let c):
            return "constraint(" + c.pairs.map { "\($0.comparator.rawValue) \($0.value.literalText)" }.joined(separator: ", ") + ")"
        }
    }
}
