/// Namespace marker for the AuthEmulator module; see docs/ARCHITECTURE.md.
public enum AuthEmulatorModule {}
