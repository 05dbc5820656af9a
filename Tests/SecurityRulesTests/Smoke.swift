import Testing
@testable import SecurityRules

@Test func moduleLoads() { _ = SecurityRulesModule.self }
