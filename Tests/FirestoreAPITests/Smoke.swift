import Testing
@testable import FirestoreAPI
import Hearth

@Test func moduleLoads() { _ = FirestoreAPIModule.self }
