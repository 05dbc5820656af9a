/// Namespace marker for the AuthEmulator module; see ARCHITECTURE.md.
public enum AuthEmulatorModule {}
