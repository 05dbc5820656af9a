/// Namespace marker for the DocumentStore module; see ARCHITECTURE.md.
public enum DocumentStoreModule {}
