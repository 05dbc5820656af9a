import Testing

@testable import Hearth

/// `hearth start` flags that take values beyond ports.
@Suite struct StartOptionsTests {
    @Test func versionRetentionTakesSecondsOrAUnit() throws {
        #expect(try StartOptions.parse(["--version-retention", "90"]).versionRetention == .seconds(90))
        #expect(try StartOptions.parse(["--version-retention=30m"]).versionRetention == .seconds(1800))
        #expect(try StartOptions.parse(["--version-retention", "1h"]).versionRetention == .seconds(3600))
        #expect(try StartOptions.parse(["--version-retention", "7d"]).versionRetention == .seconds(604_800))
        #expect(try StartOptions.parse([]).versionRetention == nil)
        for bad in ["", "h", "-1", "1.5h", "1w", "١h", "99999999999999999d"] {
            #expect(throws: ConfigError.self) { try StartOptions.parse(["--version-retention", bad]) }
        }
    }
}
