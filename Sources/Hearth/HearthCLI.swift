/// Command-line entry points of `hearth`.
public enum HearthCLI {
    /// Runs the command line; never returns on success paths that serve forever.
    public static func main(_ arguments: [String]) async {
        print("hearth: not yet implemented")
    }
}
