/// Runs a `RegexProgram` over scalars with the Pike VM: every thread advances in lock step,
/// at most one thread per instruction per position, priorities give RE2's leftmost-first
/// answers. Time is O(instructions × scalars); each thread step costs one unit of `budget`.
struct PikeVM {
    /// What one search found.
    enum Outcome {
        /// Capture positions (scalar offsets; -1 when unset): pairs per group, group 0 first.
        case match([Int])
        /// No match.
        case noMatch
        /// The step budget ran out.
        case exhausted
    }

    /// The compiled pattern.
    let program: RegexProgram

    private struct Thread {
        var pc: Int
        var caps: [Int]
    }

    /// Searches `input` from `start`.
    /// - Parameters:
    ///   - anchored: only try a match starting at `start`.
    ///   - fullMatch: the match must end at the end of the input.
    ///   - captureSlots: how many capture slots to track (2 for just group 0).
    ///   - budget: remaining steps; decremented.
    func search(_ input: [UInt32], from start: Int, anchored: Bool, fullMatch: Bool, captureSlots: Int, budget: inout Int) -> Outcome {
        if captureSlots == 0 && anchored && fullMatch { return fullMatchOnly(input, budget: &budget) }
        let code = program.instructions
        var marks = [Int](repeating: -1, count: code.count)
        var current: [Thread] = []
        var next: [Thread] = []
        var matched: [Int]?
        var stack: [Thread] = []
        let n = input.count

        func isWord(_ p: Int) -> Bool {
            guard p >= 0, p < n else { return false }
            let c = input[p]
            return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
        }

        func holds(_ a: RegexAssertion, at pos: Int) -> Bool {
            switch a {
            case .textStart: return pos == 0
            case .textEnd: return pos == n
            case .lineStart: return pos == 0 || input[pos - 1] == 0x0A
            case .lineEnd: return pos == n || input[pos] == 0x0A
            case .wordBoundary: return isWord(pos - 1) != isWord(pos)
            case .notWordBoundary: return isWord(pos - 1) == isWord(pos)
            }
        }

        /// Follows jumps, splits, saves and assertions from `t`, appending runnable threads.
        func add(_ t: Thread, to list: inout [Thread], at pos: Int, budget: inout Int) {
            stack.append(t)
            while var th = stack.popLast() {
                budget -= 1
                if marks[th.pc] == pos { continue }
                marks[th.pc] = pos
                switch code[th.pc] {
                case .jump(let x):
                    th.pc = x
                    stack.append(th)
                case .split(let x, let y):
                    stack.append(Thread(pc: y, caps: th.caps))
                    th.pc = x
                    stack.append(th)
                case .save(let k):
                    if k < th.caps.count { th.caps[k] = pos }
                    th.pc += 1
                    stack.append(th)
                case .assertion(let a):
                    if holds(a, at: pos) {
                        th.pc += 1
                        stack.append(th)
                    }
                case .scalars, .any, .match:
                    list.append(th)
                }
            }
        }

        var pos = start
        while true {
            if budget < 0 { return .exhausted }
            if matched == nil && (pos == start || !anchored) {
                add(Thread(pc: 0, caps: [Int](repeating: -1, count: captureSlots)), to: &current, at: pos, budget: &budget)
            }
            if current.isEmpty && (matched != nil || anchored || pos >= n) { break }
            for t in current {
                budget -= 1
                switch code[t.pc] {
                case .match:
                    if fullMatch && pos != n { continue }
                    matched = t.caps
                case .scalars(let set):
                    if pos < n, set.contains(input[pos]) {
                        add(Thread(pc: t.pc + 1, caps: t.caps), to: &next, at: pos + 1, budget: &budget)
                    }
                    continue
                case .any(let newline):
                    if pos < n, newline || input[pos] != 0x0A {
                        add(Thread(pc: t.pc + 1, caps: t.caps), to: &next, at: pos + 1, budget: &budget)
                    }
                    continue
                default:
                    continue
                }
                // A match cuts off every lower-priority thread of this step.
                break
            }
            swap(&current, &next)
            next.removeAll(keepingCapacity: true)
            if pos >= n { break }
            pos += 1
        }
        if budget < 0 { return .exhausted }
        if let m = matched { return .match(m) }
        return .noMatch
    }

    /// The capture-free fast path for `matches`: a set of program counters per position.
    private func fullMatchOnly(_ input: [UInt32], budget: inout Int) -> Outcome {
        let code = program.instructions
        let n = input.count
        var marks = [Int](repeating: -1, count: code.count)
        var current: [Int] = []
        var next: [Int] = []
        var stack: [Int] = []
        current.reserveCapacity(code.count)
        next.reserveCapacity(code.count)
        var steps = 0

        func holds(_ a: RegexAssertion, at pos: Int) -> Bool {
            func isWord(_ p: Int) -> Bool {
                guard p >= 0, p < n else { return false }
                let c = input[p]
                return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
            }
            switch a {
            case .textStart: return pos == 0
            case .textEnd: return pos == n
            case .lineStart: return pos == 0 || input[pos - 1] == 0x0A
            case .lineEnd: return pos == n || input[pos] == 0x0A
            case .wordBoundary: return isWord(pos - 1) != isWord(pos)
            case .notWordBoundary: return isWord(pos - 1) == isWord(pos)
            }
        }

        func add(_ pc0: Int, to list: inout [Int], at pos: Int) {
            stack.append(pc0)
            while let pc = stack.popLast() {
                steps += 1
                if marks[pc] == pos { continue }
                marks[pc] = pos
                switch code[pc] {
                case .jump(let x): stack.append(x)
                case .split(let x, let y):
                    stack.append(y)
                    stack.append(x)
                case .save: stack.append(pc + 1)
                case .assertion(let a): if holds(a, at: pos) { stack.append(pc + 1) }
                case .scalars, .any, .match: list.append(pc)
                }
            }
        }

        add(0, to: &current, at: 0)
        var pos = 0
        while !current.isEmpty {
            if steps > budget {
                budget -= steps
                return .exhausted
            }
            let c: UInt32 = pos < n ? input[pos] : 0
            for pc in current {
                steps += 1
                switch code[pc] {
                case .match:
                    if pos == n {
                        budget -= steps
                        return .match([])
                    }
                case .scalars(let set):
                    if pos < n, set.contains(c) { add(pc + 1, to: &next, at: pos + 1) }
                case .any(let newline):
                    if pos < n, newline || c != 0x0A { add(pc + 1, to: &next, at: pos + 1) }
                default: break
                }
            }
            if pos >= n { break }
            swap(&current, &next)
            next.removeAll(keepingCapacity: true)
            pos += 1
        }
        budget -= steps
        return budget < 0 ? .exhausted : .noMatch
    }
}
