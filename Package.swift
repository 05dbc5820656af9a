// swift-tools-version:6.2
import PackageDescription

/// Swift 6 language mode everywhere; every warning is an error (docs/ARCHITECTURE.md "Concurrency").
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "Hearth",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
        .executable(name: "hearth-bench", targets: ["HearthBench"]),
    ],
    targets: [
        // System libraries: one door each (docs/ARCHITECTURE.md rule 3).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL"),
        .systemLibrary(name: "CNGHTTP2", path: "Sources/CNGHTTP2"),
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

        .target(name: "FirestoreModel", swiftSettings: strict),
        .target(name: "DeterministicRandom", swiftSettings: strict),
        .target(name: "DocumentStore", dependencies: ["FirestoreModel", "CSQLite"], swiftSettings: strict),
        .target(name: "SecurityRules", dependencies: ["FirestoreModel", "COpenSSL"], swiftSettings: strict),
        .target(
            name: "FirestoreEngine", dependencies: ["FirestoreModel", "DocumentStore", "SecurityRules"],
            swiftSettings: strict),
        .target(name: "HTTPServer", dependencies: ["CNGHTTP2", "CLinux"], swiftSettings: strict),
        .target(name: "FirestoreRPC", dependencies: ["FirestoreModel"], swiftSettings: strict),
        .target(name: "ProtoWire", dependencies: ["FirestoreModel", "FirestoreRPC"], swiftSettings: strict),
        // What every Google-shaped endpoint shares: JSON, Base64, the error table, bearer tokens.
        .target(name: "GoogleWire", dependencies: ["FirestoreModel"], swiftSettings: strict),
        .target(
            name: "FirestoreAPI",
            dependencies: [
                "FirestoreModel", "FirestoreRPC", "FirestoreEngine", "GoogleWire", "HTTPServer", "ProtoWire", "SecurityRules",
            ],
            swiftSettings: strict),
        .target(
            name: "Functions", dependencies: ["FirestoreModel", "DocumentStore", "FirestoreEngine", "GoogleWire", "HTTPServer"],
            swiftSettings: strict),
        .target(
            name: "AuthEmulator", dependencies: ["FirestoreModel", "GoogleWire", "HTTPServer", "DocumentStore", "COpenSSL"],
            swiftSettings: strict),
        .target(name: "ShoutsBackend", dependencies: ["Functions", "FirestoreModel"], swiftSettings: strict),
        .target(name: "PoetryBackend", dependencies: ["Functions", "FirestoreModel"], swiftSettings: strict),
        // `hearth demo`'s script and report: a client of the emulators over HTTP only.
        .target(name: "HearthDemo", dependencies: ["GoogleWire", "HTTPServer", "ShoutsBackend"], swiftSettings: strict),
        .target(
            name: "Hearth",
            dependencies: [
                "FirestoreModel", "DocumentStore", "SecurityRules", "FirestoreEngine", "HTTPServer",
                "FirestoreAPI", "Functions", "GoogleWire", "ProtoWire", "ShoutsBackend", "PoetryBackend", "AuthEmulator", "HearthDemo", "CLinux",
            ],
            swiftSettings: strict),
        .executableTarget(name: "hearth", dependencies: ["Hearth"], swiftSettings: strict),

        // Fuzz targets (issue 18): libFuzzer harnesses built by scripts/fuzz.sh with
        // `-sanitize=fuzzer,address -DFUZZING`; a normal build makes each a replayer of files.
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport", swiftSettings: strict),
        .executableTarget(
            name: "FuzzHTTP1", dependencies: ["FuzzSupport", "HTTPServer"], path: "Fuzz/FuzzHTTP1", exclude: ["tokens.dict"],
            swiftSettings: strict),
        .executableTarget(
            name: "FuzzProto", dependencies: ["FuzzSupport", "ProtoWire", "FirestoreRPC", "FirestoreModel"], path: "Fuzz/FuzzProto",
            swiftSettings: strict),
        .executableTarget(
            name: "FuzzRules", dependencies: ["FuzzSupport", "SecurityRules"], path: "Fuzz/FuzzRules", exclude: ["tokens.dict"],
            swiftSettings: strict),
        .executableTarget(
            name: "FuzzJSON", dependencies: ["FuzzSupport", "FirestoreAPI", "GoogleWire", "FirestoreModel"], path: "Fuzz/FuzzJSON",
            swiftSettings: strict),
        .executableTarget(
            name: "FuzzExport", dependencies: ["FuzzSupport", "ProtoWire", "FirestoreModel"], path: "Fuzz/FuzzExport",
            swiftSettings: strict),

        // Benchmark workloads: measurement code outside the production targets.
        .target(
            name: "StoreWorkloads", dependencies: ["DocumentStore", "FirestoreModel"], path: "Benchmarks/StoreWorkloads",
            swiftSettings: strict),
        .target(
            name: "ShoutsWorkloads",
            dependencies: ["ShoutsBackend", "Functions", "FirestoreEngine", "FirestoreModel", "DeterministicRandom"],
            path: "Benchmarks/ShoutsWorkloads",
            swiftSettings: strict),
        .executableTarget(
            name: "HearthBench",
            dependencies: [
                "Hearth", "CSQLite", "FirestoreModel", "DocumentStore", "SecurityRules", "FirestoreEngine", "StoreWorkloads",
                "ShoutsWorkloads",
            ],
            path: "Benchmarks/HearthBench",
            swiftSettings: strict),

        .testTarget(name: "FirestoreModelTests", dependencies: ["FirestoreModel", "DeterministicRandom"], swiftSettings: strict),
        .testTarget(
            name: "DocumentStoreTests", dependencies: ["DocumentStore", "StoreWorkloads", "DeterministicRandom"],
            swiftSettings: strict),
        .testTarget(name: "SecurityRulesTests", dependencies: ["SecurityRules"], swiftSettings: strict),
        .testTarget(name: "FirestoreEngineTests", dependencies: ["FirestoreEngine"], swiftSettings: strict),
        .testTarget(name: "ProtoWireTests", dependencies: ["ProtoWire", "FirestoreRPC", "DeterministicRandom"], swiftSettings: strict),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "DeterministicRandom"], swiftSettings: strict),
        .testTarget(
            name: "FirestoreAPITests",
            dependencies: ["FirestoreAPI", "FirestoreRPC", "GoogleWire", "ProtoWire", "HTTPServer", "Hearth", "DeterministicRandom"],
            swiftSettings: strict),
        .testTarget(name: "AuthEmulatorTests", dependencies: ["AuthEmulator", "GoogleWire", "Hearth"], swiftSettings: strict),
        .testTarget(
            name: "PoetryBackendTests",
            dependencies: ["PoetryBackend", "Functions", "FirestoreEngine", "DocumentStore", "FirestoreModel", "Hearth"],
            swiftSettings: strict),
        .testTarget(
            name: "ShoutsBackendTests",
            dependencies: ["ShoutsBackend", "ShoutsWorkloads", "GoogleWire", "Hearth", "HearthDemo", "DeterministicRandom"],
            swiftSettings: strict),
        .testTarget(
            name: "FunctionsTests",
            dependencies: ["Functions", "FirestoreEngine", "DocumentStore", "FirestoreModel", "GoogleWire", "HTTPServer"],
            swiftSettings: strict),
    ]
)
