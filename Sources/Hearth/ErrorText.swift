import FoundationEssentials
import Glibc
import HTTPServer

/// Errors in one line for a person: what the commands print when a file or a request fails.
enum ErrorText {
    /// A file error as its system reason ("No such file or directory", from the POSIX error
    /// beneath Foundation's `CocoaError`), a client failure as its description, anything
    /// else as printed.
    static func describe(_ error: any Error) -> String {
        if let failure = error as? LoopbackHTTPClient.Failure { return failure.description }
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.underlying as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
            return "file error \(cocoa.code.rawValue)"
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return "\(error)"
    }
}
