import FirestoreModel
import Testing

@testable import Functions

@Suite("CallableWire: request decoding and response encoding (docs/reference/firestore-wire.md §3.2–§3.4)")
struct CallableWireTests {
    func decode(_ body: String) throws(CallableError) -> CallableValue {
        try CallableWire.decodeRequest(body: Array(body.utf8))
    }

    func decodeError(_ body: String) -> CallableError? {
        do throws(CallableError) {
            _ = try decode(body)
            return nil
        } catch {
            return error
        }
    }

    @Test("{\"data\": …} decodes; null data is allowed")
    func decodesData() throws {
        #expect(try decode(#"{"data":{"a":1,"b":1.5,"c":"x","d":true,"e":null,"f":[1]}}"#)
            == ["a": 1, "b": 1.5, "c": "x", "d": true, "e": nil, "f": [1]])
        #expect(try decode(#"{"data":null}"#) == .null)
    }

    @Test("booleans are not numbers and numbers are not booleans")
    func boolsAndNumbers() throws {
        #expect(try decode(#"{"data":[true,false,1,0,1.0]}"#) == [.bool(true), .bool(false), .int(1), .int(0), .double(1)])
    }

    @Test(
        "malformed requests are INVALID_ARGUMENT \"Bad Request\"",
        arguments: ["", "not json", "[1]", "1", #"{"dat":1}"#, #"{"data":1,"extra":2}"#, "{}", #"{"data":1e400}"#,
            #"{"data":"\ud800"}"#])
    func badRequests(_ body: String) {
        #expect(decodeError(body) == .invalidArgument("Bad Request"))
    }

    @Test("Int64Value and UInt64Value wrappers decode to exact integers; other @types are rejected")
    func wrappers() throws {
        let int64 = "type.googleapis.com/google.protobuf.Int64Value"
        let uint64 = "type.googleapis.com/google.protobuf.UInt64Value"
        #expect(try decode(#"{"data":{"@type":"\#(int64)","value":"9007199254740993"}}"#) == .int(9_007_199_254_740_993))
        #expect(try decode(#"{"data":{"n":{"@type":"\#(int64)","value":"-42"}}}"#) == ["n": .int(-42)])
        #expect(try decode(#"{"data":{"@type":"\#(uint64)","value":"18446744073709551615"}}"#) == .double(Double(UInt64.max)))
        #expect(try decode(#"{"data":{"@type":"\#(int64)","value":"1.5"}}"#) == .double(1.5))
        #expect(decodeError(#"{"data":{"@type":"\#(int64)","value":"NaN"}}"#)?.code == .invalidArgument)
        #expect(decodeError(#"{"data":{"@type":"\#(int64)","value":5}}"#)?.code == .invalidArgument)
        #expect(decodeError(#"{"data":{"@type":"type.googleapis.com/google.protobuf.Any","value":"1"}}"#)?.code == .invalidArgument)
    }

    @Test("a duplicate member keeps the last value, as JavaScript's JSON.parse on Cloud Functions")
    func duplicateMembers() throws {
        #expect(try decode(#"{"data":1,"data":{"a":1,"a":2}}"#) == ["a": .int(2)])
    }

    @Test("nesting up to 512 levels (the body included) decodes; deeper is Bad Request")
    func nesting() throws {
        let deepest = #"{"data":"# + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}"
        #expect(throws: Never.self) { try decode(deepest) }
        let tooDeep = #"{"data":"# + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}"
        #expect(decodeError(tooDeep) == .invalidArgument("Bad Request"))
    }

    @Test("huge integers beyond Int64 become doubles")
    func hugeIntegers() throws {
        #expect(try decode(#"{"data":123456789012345678901234567890}"#) == .double(1.2345678901234568e29))
    }

    @Test("results encode compactly with sorted keys; integers beyond 2^53 use the Int64Value wrapper")
    func encodesResult() throws {
        let body = try CallableWire.encodeResult(["b": [1, 2.5, "x\n\"", true, nil], "a": .int(9_007_199_254_740_993)])
        #expect(String(decoding: body, as: UTF8.self)
            == #"{"result":{"a":{"@type":"type.googleapis.com/google.protobuf.Int64Value","value":"9007199254740993"},"b":[1,2.5,"x\n\"",true,null]}}"#)
        #expect(String(decoding: try CallableWire.encodeResult(.null), as: UTF8.self) == #"{"result":null}"#)
    }

    @Test("a non-finite double in a result is INTERNAL, as firebase-functions' encoder")
    func nonFiniteResult() {
        #expect(throws: CallableError.internalError) { try CallableWire.encodeResult(["x": .double(.nan)]) }
        #expect(throws: CallableError.internalError) { try CallableWire.encodeResult(.double(.infinity)) }
    }

    @Test("error bodies carry status, message and optional details")
    func encodesError() {
        let plain = CallableWire.encodeError(.resourceExhausted("slow down"))
        #expect(String(decoding: plain, as: UTF8.self) == #"{"error":{"message":"slow down","status":"RESOURCE_EXHAUSTED"}}"#)
        let detailed = CallableWire.encodeError(CallableError(.invalidArgument, "bad", details: ["field": "text"]))
        #expect(String(decoding: detailed, as: UTF8.self)
            == #"{"error":{"details":{"field":"text"},"message":"bad","status":"INVALID_ARGUMENT"}}"#)
    }
}
