import Testing

@testable import HTTPServer

@Suite struct HTTPHeadersTests {
    @Test func replaceOrAddReplacesFirstInPlaceAndDropsTheRest() {
        var headers: HTTPHeaders = ["A": "1", "X": "2", "b": "3"]
        headers.add("x", "4")
        headers.replaceOrAdd("X", "5")
        #expect(headers == HTTPHeaders([("A", "1"), ("X", "5"), ("b", "3")]))
        headers.replaceOrAdd("new", "6")
        #expect(headers.map(\.name) == ["A", "X", "b", "new"])
    }

    @Test func lookupIsCaseInsensitiveAndFirstWins() {
        var headers = HTTPHeaders()
        headers.add("Set-Cookie", "a")
        headers.add("set-cookie", "b")
        #expect(headers["SET-COOKIE"] == "a")
        #expect(headers.values("Set-Cookie") == ["a", "b"])
        #expect(headers["missing"] == nil)
        headers.remove("SET-cookie")
        #expect(headers.isEmpty)
    }

    @Test func requestInitDerivesPathAndQuery() {
        let request = HTTPRequest(method: "GET", target: "/a%2Fb?x=1&x=2")
        #expect(request.path == "/a%2Fb")
        #expect(request.queryItems.map(\.value) == ["1", "2"])
    }
}
