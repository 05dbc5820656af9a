/// Namespace marker for the SecurityRules module; see ARCHITECTURE.md.
public enum SecurityRulesModule {}
