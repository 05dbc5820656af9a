import Testing

@testable import ShoutsBackend

@Suite("ShoutsConstants (docs/app/shouts-and-whispers.md §10)")
struct ShoutsConstantsTests {
    @Test("values match the app design's constants table (docs/app/shouts-and-whispers.md §10)")
    func values() {
        #expect(ShoutsConstants.whisperRadiusMeters == 150)
        #expect(ShoutsConstants.shoutRadiusMeters == 1500)
        #expect(ShoutsConstants.presenceTTL == .seconds(300))
        #expect(ShoutsConstants.maxTextLength == 500)
        #expect(ShoutsConstants.sendCooldown == .seconds(5))
        #expect(ShoutsConstants.presenceGeohashPrecision == 9)
        #expect(ShoutsConstants.feedBatchMaxWrites == 450)
        #expect(ShoutsConstants.fcmMulticastMaxTokens == 500)
        #expect(ShoutsConstants.presenceCleanupAge == .seconds(2_592_000))
    }
}
