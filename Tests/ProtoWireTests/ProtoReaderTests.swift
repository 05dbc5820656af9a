import Testing
@testable import ProtoWire
