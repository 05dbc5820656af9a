/// Namespace marker for the Functions module; see ARCHITECTURE.md.
public enum FunctionsModule {}
