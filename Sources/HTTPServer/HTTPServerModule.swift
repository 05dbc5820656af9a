/// Namespace marker for the HTTPServer module; see docs/ARCHITECTURE.md.
public enum HTTPServerModule {}
