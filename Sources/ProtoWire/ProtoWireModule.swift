/// Namespace marker for the ProtoWire module; see ARCHITECTURE.md.
public enum ProtoWireModule {}
