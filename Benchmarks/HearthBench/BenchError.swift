/// Why a benchmark step could not run: the step's cell says so and the run goes on.
enum BenchError: Error, CustomStringConvertible {
    /// A command-line mistake (empty message: just print the usage).
    case usage(String)
    /// A tool the step needs is not installed; the text says which and how to get it.
    case missingTool(String)
    /// A child process (wrk, nginx, gcloud, python) failed; the text carries its output tail.
    case childFailed(String)
    /// A server answered something unexpected.
    case badResponse(String)

    /// One line for the report.
    var description: String {
        switch self {
        case .usage(let m): m
        case .missingTool(let m): m
        case .childFailed(let m): m
        case .badResponse(let m): m
        }
    }
}
