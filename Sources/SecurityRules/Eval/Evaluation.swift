import FirestoreModel

/// A variable's state in an environment.
enum Binding {
    /// A value.
    case value(RulesValue)
    /// A `let` whose expression failed: the error surfaces only when the name is read.
    case error(RulesEvalError)
    /// A wildcard with no value: the document id of a `list` request (docs/reference/security-rules.md §7 item 3).
    case unbound
}

/// The variables of one evaluation frame and the function scope it resolves names in.
struct Environment {
    /// Parameters, lets and wildcard captures.
    var variables: [String: Binding]
    /// Index of the function scope (`RulesProgram.scopes`) used to resolve calls.
    var scope: Int
    /// Every capture of the matched block; a called function sees those its scope declares.
    var captures: [String: Binding]
}

/// Shared state of the document reads of one request or one whole batch (docs/reference/security-rules.md §6):
/// a cache keyed by (before/after, path) — repeats are free, `get` and `exists` of one path
/// share a read — and the batch-wide call count.
final class AccessLedger {
    /// Cache key: which state and which document.
    struct Key: Hashable {
        /// True for `getAfter`/`existsAfter`.
        var after: Bool
        /// The document.
        var path: ResourcePath
    }

    /// Documents read so far (nil = missing).
    var cache: [Key: Document?] = [:]
    /// Reads charged to the batch.
    var calls = 0
    /// Most reads the batch may make.
    let limit: Int
    /// Where reads go.
    let access: any RulesDocumentAccess

    /// Creates an empty ledger.
    init(access: any RulesDocumentAccess, limit: Int) {
        self.access = access
        self.limit = limit
    }
}

/// The interpreter state of one request (or one way of a list request): globals, budgets,
/// document access, coverage counters and, when explaining a denial, a trace of results.
final class Evaluation {
    /// The program being run.
    let program: RulesProgram
    /// The request's database (document paths must name it).
    let database: DatabaseID
    /// Budgets.
    let limits: RulesLimits
    /// `request` and `resource`.
    var globals: [String: RulesValue]
    /// Globals whose value is unknown: reading one is an unprovable error (the emulator's
    /// first pass over an upsert does not know `resource`; see `Ruleset.upsertPrelude`).
    var unknownGlobals: Set<String> = []
    /// Document reads, shared across a batch.
    let ledger: AccessLedger
    /// Expressions evaluated so far.
    var steps = 0
    /// Library work units spent so far.
    var work = 0
    /// Active user-function calls.
    var callDepth = 0
    /// Active expression frames.
    var depth = 0
    /// Reads charged to this operation.
    var operationReads = 0
    /// Per-expression [evaluations, true, false, error] counts, merged into the ruleset later.
    var coverage: [Int32]?
    /// Last result of each expression, kept only while explaining.
    var trace: [Int: Result<RulesValue, RulesEvalError>]?
    /// `debug()` output lines.
    var debugLog: [String] = []

    /// Creates the state for one request.
    init(
        program: RulesProgram, database: DatabaseID, limits: RulesLimits, globals: [String: RulesValue], ledger: AccessLedger,
        recordCoverage: Bool
    ) {
        self.program = program
        self.database = database
        self.limits = limits
        self.globals = globals
        self.ledger = ledger
        if recordCoverage { coverage = [Int32](repeating: 0, count: program.expressions.count * 4) }
    }

    /// Charges `units` of library work.
    /// - Throws: a fatal error when the work budget is spent.
    func charge(_ units: Int, at position: SourcePosition) throws(RulesEvalError) {
        work += units
        if work > limits.maxWork {
            throw RulesEvalError("Evaluation exceeded the work budget of \(limits.maxWork) steps.", at: position, kind: .fatal)
        }
    }

    /// Reads a document for `get`/`exists` (after == false) or `getAfter`/`existsAfter`.
    /// - Throws: a fatal error past the per-operation or per-batch budget; an ordinary error
    ///   when the access itself fails.
    func read(_ path: ResourcePath, after: Bool, function: String, at position: SourcePosition) throws(RulesEvalError) -> Document? {
        let key = AccessLedger.Key(after: after, path: path)
        if let cached = ledger.cache[key] { return cached }
        operationReads += 1
        ledger.calls += 1
        if operationReads > limits.maxDocumentAccessPerOperation {
            throw RulesEvalError(
                "Exceeded the maximum of \(limits.maxDocumentAccessPerOperation) get(), exists(), getAfter() and existsAfter() calls for one request.",
                at: position, kind: .fatal)
        }
        if ledger.calls > ledger.limit {
            throw RulesEvalError(
                "Exceeded the maximum of \(ledger.limit) get(), exists(), getAfter() and existsAfter() calls for a batch or transaction.",
                at: position, kind: .fatal)
        }
        let doc: Document?
        do {
            doc = after ? try ledger.access.getAfter(path) : try ledger.access.get(path)
        } catch {
            throw RulesEvalError("Service call error. Function: [\(function)]: \(error)", at: position)
        }
        ledger.cache[key] = doc
        return doc
    }

    /// True when results are recorded (coverage counters or an explanation trace).
    var recording: Bool { coverage != nil || trace != nil }

    /// Records a value of `e` for coverage and tracing.
    @inline(never)
    func recordSuccess(_ e: Expr, _ v: RulesValue) { record(e, .success(v)) }

    /// Records an error of `e` for coverage and tracing.
    @inline(never)
    func recordFailure(_ e: Expr, _ error: RulesEvalError) { record(e, .failure(error)) }

    /// Records one outcome of `e` for coverage and tracing.
    func record(_ e: Expr, _ outcome: Result<RulesValue, RulesEvalError>) {
        if coverage != nil {
            let base = e.id * 4
            if base + 3 < coverage?.count ?? 0 {
                coverage?[base] += 1
                switch outcome {
                case .success(.bool(true)): coverage?[base + 1] += 1
                case .success(.bool(false)): coverage?[base + 2] += 1
                case .failure: coverage?[base + 3] += 1
                default: break
                }
            }
        }
        if trace != nil { trace?[e.id] = outcome }
    }
}
