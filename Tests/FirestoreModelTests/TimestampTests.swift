import Testing

@testable import FirestoreModel

@Suite struct TimestampTests {
    @Test func formatsEpoch() {
        #expect(Timestamp(seconds: 0, nanos: 0).rfc3339 == "1970-01-01T00:00:00Z")
    }
}
