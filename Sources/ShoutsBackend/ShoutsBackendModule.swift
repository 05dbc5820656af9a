/// Namespace marker for the ShoutsBackend module; see ARCHITECTURE.md.
public enum ShoutsBackendModule {}
