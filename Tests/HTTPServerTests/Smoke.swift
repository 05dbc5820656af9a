import Testing
@testable import HTTPServer

@Test func moduleLoads() { _ = HTTPServerModule.self }
