/// Namespace marker for the FirestoreModel module; see ARCHITECTURE.md.
public enum FirestoreModelModule {}
