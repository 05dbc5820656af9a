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

/// The warning when an emulator listens beyond loopback (docs/threat-model.md).
@Suite struct ExposureWarningTests {
    @Test func loopbackIsQuietAndAnyOtherAddressIsNamed() throws {
        var config = FirebaseConfig.defaults(directory: "/tmp")
        #expect(HearthApp.exposureWarning(config) == nil)
        config.auth.host = "::1"
        config.hub.host = "localhost"
        #expect(HearthApp.exposureWarning(config) == nil)
        config.firestore.host = "0.0.0.0"
        config.ui.host = "192.168.1.20"
        let warning = try #require(HearthApp.exposureWarning(config))
        #expect(warning.hasPrefix("hearth: warning: firestore on 0.0.0.0, ui on 192.168.1.20 can be reached from other machines"))
        #expect(warning.contains("no production authentication"))
    }
}
