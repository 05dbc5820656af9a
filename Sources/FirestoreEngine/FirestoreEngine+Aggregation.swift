import DocumentStore
import FirestoreModel

extension FirestoreEngine {
    /// RunAggregationQuery: count / sum / avg over the query's results (after its offset
    /// and limit), one value per alias.
    ///
    /// `count` is an int (capped by `upTo`); `sum` is an int when every summed value is an
    /// int and no overflow occurs, else a double (NaN propagates); `avg` is a double, null
    /// for no numeric values. Non-numeric values are skipped. Source: reference §1.6.
    /// - Throws: as `runQuery`; `.invalidArgument` for 0 or more than 5 aggregations or
    ///   duplicate aliases.
    public func runAggregation(
        _ target: QueryTarget, aggregations: [Aggregation], in database: DatabaseID,
        consistency: ReadConsistency = .strong, auth: AuthContext
    ) throws(FirestoreError) -> ReadResult<[String: Value]> {
        guard (1...5).contains(aggregations.count) else {
            throw .invalidArgument("Aggregation queries take between 1 and 5 aggregations.")
        }
        guard Set(aggregations.map(\.alias)).count == aggregations.count else {
            throw .invalidArgument("Aggregation aliases must be unique.")
        }
        let r = try runQuery(target, in: database, consistency: consistency, auth: auth)
        var out: [String: Value] = [:]
        for a in aggregations {
            out[a.alias] = Self.aggregate(a.kind, over: r.value.documents)
        }
        return ReadResult(value: out, readTime: r.readTime, transaction: r.transaction)
    }

    /// One aggregation over documents.
    static func aggregate(_ kind: Aggregation.Kind, over docs: [Document]) -> Value {
        switch kind {
        case .count(let upTo):
            let n = Int64(docs.count)
            return .integer(upTo.map { min($0, n) } ?? n)
        case .sum(let field):
            var intSum: Int64 = 0
            var doubleSum = 0.0
            var isInt = true
            for d in docs {
                switch d.fields.value(at: field) {
                case .integer(let i)?:
                    if isInt {
                        let (s, o) = intSum.addingReportingOverflow(i)
                        if o {
                            isInt = false
                            doubleSum = Double(intSum) + Double(i)
                        } else {
                            intSum = s
                        }
                    } else {
                        doubleSum += Double(i)
                    }
                case .double(let x)?:
                    if isInt {
                        isInt = false
                        doubleSum = Double(intSum)
                    }
                    doubleSum += x
                default: continue
                }
            }
            return isInt ? .integer(intSum) : .double(doubleSum)
        case .avg(let field):
            var sum = 0.0
            var n = 0
            for d in docs {
                switch d.fields.value(at: field) {
                case .integer(let i)?: sum += Double(i); n += 1
                case .double(let x)?: sum += x; n += 1
                default: continue
                }
            }
            return n == 0 ? .null : .double(sum / Double(n))
        }
    }
}
