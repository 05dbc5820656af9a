import FuzzSupport

@testable import HTTPServer

/// The HTTP/1.1 request parser on one input (issue 18 item 1): the bytes are fed in pieces
/// whose sizes the input's first byte chooses, and every event is pulled until the parser
/// ends or fails. Anything but a crash, a leak or a hang is a pass: the parser's answer to
/// garbage is an error event.
func fuzzOne(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    var parser = HTTP1RequestParser(limits: .init(maxHeaderBytes: 8_192, maxBodyBytes: 1 << 16))
    let step = Int(first % 31) + 1
    var i = 1
    while i < bytes.count {
        parser.feed(bytes[i..<min(i + step, bytes.count)])
        i += step
        while let event = parser.next() {
            if case .error = event { return }
        }
    }
}

#if FUZZING
    @_cdecl("FuzzHTTP1_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzSupport.run(argc, argv, fuzzOne)
    }
#else
    @main struct Replay { static func main() { FuzzSupport.replay(fuzzOne) } }
#endif
