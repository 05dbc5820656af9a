import FoundationEssentials
import Synchronization

/// The regex operations behind `string.matches`, `replace` and `split` (docs/reference/security-rules.md §4.3),
/// with a process-wide cache of compiled patterns.
enum RulesRegex {
    /// Why an operation failed.
    enum Failure: Error {
        /// The pattern is invalid.
        case syntax(String)
        /// The step budget ran out.
        case exhausted
    }

    /// Compiles `pattern`, reusing a cached program.
    static func compile(_ pattern: String) throws(Failure) -> RegexProgram {
        switch RegexCache.shared.program(for: pattern) {
        case .success(let p): return p
        case .failure(let e): throw .syntax(e.message)
        }
    }

    /// True when the pattern matches the whole string (RE2 `FullMatch`).
    static func fullMatch(_ pattern: String, _ text: String, budget: inout Int) throws(Failure) -> Bool {
        let program = try compile(pattern)
        let input = text.unicodeScalars.map(\.value)
        switch PikeVM(program: program).search(input, from: 0, anchored: true, fullMatch: true, captureSlots: 0, budget: &budget) {
        case .match: return true
        case .noMatch: return false
        case .exhausted: throw .exhausted
        }
    }

    /// Every non-overlapping leftmost-first match, as scalar offsets of all groups.
    static func allMatches(_ program: RegexProgram, _ input: [UInt32], budget: inout Int) throws(Failure) -> [[Int]] {
        var out: [[Int]] = []
        var pos = 0
        let vm = PikeVM(program: program)
        let slots = 2 * (program.groupCount + 1)
        while pos <= input.count {
            switch vm.search(input, from: pos, anchored: false, fullMatch: false, captureSlots: slots, budget: &budget) {
            case .exhausted: throw .exhausted
            case .noMatch: return out
            case .match(let caps):
                out.append(caps)
                let (s, e) = (caps[0], caps[1])
                pos = e > s ? e : e + 1
            }
        }
        return out
    }

    /// Replaces every match; `$n` in `replacement` inserts group n, `\x` inserts `x`.
    static func replaceAll(_ pattern: String, _ text: String, _ replacement: String, budget: inout Int) throws(Failure) -> String {
        let program = try compile(pattern)
        let input = text.unicodeScalars.map(\.value)
        let matches = try allMatches(program, input, budget: &budget)
        let rep = Array(replacement.unicodeScalars)
        var out = String.UnicodeScalarView()
        var last = 0
        func append(_ a: Int, _ b: Int) {
            for k in a..<b { if let u = Unicode.Scalar(input[k]) { out.append(u) } }
        }
        for caps in matches {
            // The output can outgrow the input (every match may insert a long replacement).
            budget -= rep.count + (caps[0] - last)
            if budget < 0 { throw .exhausted }
            append(last, caps[0])
            var k = 0
            while k < rep.count {
                let c = rep[k]
                if c == "\\", k + 1 < rep.count {
                    out.append(rep[k + 1])
                    k += 2
                } else if c == "$", k + 1 < rep.count, let g = Int(String(rep[k + 1])), g <= program.groupCount {
                    if caps[2 * g] >= 0 { append(caps[2 * g], caps[2 * g + 1]) }
                    k += 2
                } else {
                    out.append(c)
                    k += 1
                }
            }
            last = caps[1]
        }
        append(last, input.count)
        return String(out)
    }

    /// Splits around matches like Java's `String.split`: a zero-width match at the start gives
    /// no leading empty piece, and trailing empty pieces are dropped.
    static func split(_ pattern: String, _ text: String, budget: inout Int) throws(Failure) -> [String] {
        let program = try compile(pattern)
        let input = text.unicodeScalars.map(\.value)
        let matches = try allMatches(program, input, budget: &budget)
        func piece(_ a: Int, _ b: Int) -> String {
            var v = String.UnicodeScalarView()
            for k in a..<b { if let u = Unicode.Scalar(input[k]) { v.append(u) } }
            return String(v)
        }
        var out: [String] = []
        var last = 0
        for caps in matches {
            if caps[1] == 0 { continue }  // zero-width match at the very start
            if caps[0] == caps[1] && caps[0] >= input.count { continue }
            out.append(piece(last, caps[0]))
            last = caps[1]
        }
        out.append(piece(last, input.count))
        while let l = out.last, l.isEmpty, out.count > 1 { out.removeLast() }
        if out == [""] && !input.isEmpty { return [] }
        return out
    }
}

/// Compiled patterns by source text, shared by every ruleset (bounded to 512 entries).
final class RegexCache: Sendable {
    /// The process-wide cache.
    static let shared = RegexCache()
    private let entries = Mutex<[String: Result<RegexProgram, RegexSyntaxError>]>([:])

    /// The compiled program (or the syntax error) for `pattern`.
    func program(for pattern: String) -> Result<RegexProgram, RegexSyntaxError> {
        if let hit = entries.withLock({ $0[pattern] }) { return hit }
        let compiled: Result<RegexProgram, RegexSyntaxError>
        do { compiled = .success(try RegexProgram(pattern)) } catch { compiled = .failure(error) }
        entries.withLock { entries in
            if entries.count >= 512 { entries.removeAll() }
            entries[pattern] = compiled
        }
        return compiled
    }
}
