/// Namespace marker for the ShoutsBackend module; see docs/ARCHITECTURE.md.
public enum ShoutsBackendModule {}
