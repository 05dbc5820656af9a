/// Indented dump of a parsed rules file, one declaration per line.
extension RulesFileSyntax: CustomStringConvertible {
    /// The dump.
    public var description: String {
        var out = "rules_version \(version)\n"
        for f in functions { f.dump(into: &out, indent: "") }
        if let s = service {
            out += "service \(s.name)\n"
            for f in s.functions { f.dump(into: &out, indent: "  ") }
            for m in s.matches { m.dump(into: &out, indent: "  ") }
        }
        return out
    }
}

extension FunctionDecl {
    /// Appends this declaration to `out`, indented by `indent`.
    func dump(into out: inout String, indent: String) {
        out += "\(indent)function \(name)(\(parameters.joined(separator: ", ")))\n"
        for b in bindings { out += "\(indent)  let \(b.name) = \(b.value.dump)\n" }
        out += "\(indent)  return \(body.dump)\n"
    }
}

extension MatchDecl {
    /// Appends this match, its statements and its children to `out`, indented by `indent`.
    func dump(into out: inout String, indent: String) {
        out += "\(indent)match /\(pattern.map(\.description).joined(separator: "/"))\n"
        for f in functions { f.dump(into: &out, indent: indent + "  ") }
        for a in allows {
            out += "\(indent)  allow \(a.methods.map(\.rawValue).joined(separator: ","))"
            out += a.condition.map { ": if \($0.dump)" } ?? ""
            out += "\n"
        }
        for c in children { c.dump(into: &out, indent: indent + "  ") }
    }
}
