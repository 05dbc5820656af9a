/// Namespace marker for the FirestoreEngine module; see ARCHITECTURE.md.
public enum FirestoreEngineModule {}
