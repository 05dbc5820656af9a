import Testing
@testable import FirestoreEngine

@Test func moduleLoads() { _ = FirestoreEngineModule.self }
