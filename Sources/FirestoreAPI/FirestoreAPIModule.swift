/// Namespace marker for the FirestoreAPI module; see ARCHITECTURE.md.
public enum FirestoreAPIModule {}
