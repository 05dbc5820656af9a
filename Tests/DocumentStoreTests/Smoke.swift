import Testing
@testable import DocumentStore

@Test func moduleLoads() { _ = DocumentStoreModule.self }
