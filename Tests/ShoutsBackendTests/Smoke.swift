import Testing
@testable import ShoutsBackend

@Test func moduleLoads() { _ = ShoutsBackendModule.self }
