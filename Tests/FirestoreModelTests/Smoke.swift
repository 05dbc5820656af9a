import Testing
@testable import FirestoreModel

@Test func moduleLoads() { _ = FirestoreModelModule.self }
