/// Namespace marker for the HTTPServer module; see ARCHITECTURE.md.
public enum HTTPServerModule {}
