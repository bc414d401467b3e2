// swift-tools-version: 6.1
// Foldback: a JACK client hosting a realtime, live-performance mixing chain.
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The realtime targets are optimised even in debug builds: unoptimised SIMD DSP runs far slower than
/// realtime, which would make every live JACK test (and a developer's debug run) drop out.
let realtimeSwift: [SwiftSetting] = strictSwift + [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Foldback",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "foldback", targets: ["foldback"]),
        .executable(name: "foldback-probe", targets: ["foldback-probe"]),
        .executable(name: "foldback-rtcheck", targets: ["foldback-rtcheck"]),
        .executable(name: "foldback-fuzz", targets: ["foldback-fuzz"]),
        // LD_PRELOAD hook that counts malloc/free calls made on the audio thread.
        .library(name: "FoldbackAllocCounter", type: .dynamic, targets: ["CFoldbackAllocCounter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-atomics", exact: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    targets: [
        // MARK: System libraries (pkg-config) and C shims
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CLilv", pkgConfig: "lilv-0", providers: [.apt(["liblilv-dev", "lv2-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSamplerate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CLo", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "CFoldback", dependencies: ["CJack", "CFoldbackTeam"]),
        .target(name: "CFoldbackTeam"),
        .target(name: "CFoldbackAllocCounter", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CFoldbackLV2"),
        .target(name: "CFoldbackFuzz"),

        // MARK: Realtime core
        .target(name: "FoldbackDSP", swiftSettings: realtimeSwift),
        .target(
            name: "FoldbackEngine",
            dependencies: ["FoldbackDSP", "CFoldbackTeam", .product(name: "Atomics", package: "swift-atomics")],
            swiftSettings: realtimeSwift
        ),

        // MARK: Backends around the engine
        .target(
            name: "FoldbackLV2",
            dependencies: [
                "CLilv", "CFoldbackLV2", "FoldbackEngine",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "FoldbackJACK",
            dependencies: [
                "CJack", "CFoldback", "FoldbackEngine", "FoldbackDSP",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "FoldbackFeedback",
            dependencies: [
                "CFFTW", "FoldbackEngine", "FoldbackDSP", "FoldbackAnalysis",
                .product(name: "Atomics", package: "swift-atomics"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: realtimeSwift
        ),
        .target(name: "FoldbackRender", dependencies: ["CSndfile", "CSamplerate", "CFoldback", "FoldbackEngine"], swiftSettings: strictSwift),
        // Optimised in debug builds too: the analyser's FFT and banding run 20 times a second on a worker (issue 24 §3).
        .target(name: "FoldbackAnalysis", dependencies: ["CEBUR128", "CFFTW", "FoldbackEngine", "FoldbackDSP"], swiftSettings: realtimeSwift),

        // MARK: Drawings of what the engine does (issue 23 §3: the response plot, out of the CLI; a web page may use it too)
        .target(name: "FoldbackPlot", dependencies: ["FoldbackDSP"], swiftSettings: strictSwift),

        // MARK: Presets and the command line
        .target(
            name: "FoldbackPresets",
            dependencies: ["FoldbackEngine", "FoldbackDSP", "FoldbackLV2", "FoldbackFeedback", "TOMLKit"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "FoldbackControl",
            dependencies: ["CLo", "FoldbackEngine", "FoldbackPresets", "FoldbackAnalysis"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "FoldbackWeb",
            dependencies: [
                "CQRencode", "FoldbackControl", "FoldbackAnalysis", "FoldbackEngine", "FoldbackPresets", "FoldbackDSP",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: strictSwift
        ),
        // MARK: The live session (what `foldback run` runs), driven by the CLI, OSC, MIDI and the web surface
        .target(
            name: "FoldbackLive",
            dependencies: [
                "FoldbackControl", "FoldbackWeb", "FoldbackPresets", "FoldbackJACK", "FoldbackEngine", "FoldbackDSP", "FoldbackRender",
                "FoldbackAnalysis", "CFoldback",
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "foldback",
            dependencies: [
                "FoldbackLive", "FoldbackControl", "FoldbackWeb", "FoldbackPresets", "FoldbackJACK", "FoldbackEngine", "FoldbackDSP", "FoldbackRender",
                "FoldbackLV2", "FoldbackAnalysis", "CFoldback", "CLo",
                "FoldbackPlot",  // issue 23 §3
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "foldback-probe",
            dependencies: [
                "FoldbackJACK", "FoldbackRender", "FoldbackFeedback",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "foldback-rtcheck",
            dependencies: [
                "FoldbackEngine", "FoldbackDSP", "FoldbackLV2", "FoldbackAnalysis", "FoldbackFeedback", "CFoldback",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Atomics", package: "swift-atomics"),
            ],
            swiftSettings: strictSwift
        ),

        .executableTarget(
            name: "foldback-fuzz",
            dependencies: ["FoldbackPresets", "FoldbackDSP", "CFoldbackFuzz", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSwift
        ),

        // MARK: Tests
        // Helpers the tests share (bounded process waits); no production target depends on it.
        .target(name: "FoldbackTestSupport", swiftSettings: strictSwift),
        .testTarget(name: "FoldbackDSPTests", dependencies: ["FoldbackDSP", "FoldbackEngine"]),
        .testTarget(name: "FoldbackEngineTests", dependencies: ["FoldbackEngine", "FoldbackDSP", "CFoldbackTeam", "FoldbackTestSupport", .product(name: "Atomics", package: "swift-atomics")]),
        .testTarget(name: "FoldbackPresetsTests", dependencies: ["FoldbackPresets", "FoldbackEngine", "FoldbackFeedback"]),
        .testTarget(name: "FoldbackFeedbackTests", dependencies: ["FoldbackFeedback", "FoldbackDSP", "FoldbackEngine", "FoldbackJACK", "FoldbackRender", "FoldbackPresets", "FoldbackTestSupport"]),
        .testTarget(name: "FoldbackRenderTests", dependencies: ["FoldbackRender", "FoldbackEngine"]),
        // issue 23 §3: the response plot's tests
        .testTarget(name: "FoldbackPlotTests", dependencies: ["FoldbackPlot", "FoldbackDSP"]),
        .testTarget(name: "FoldbackAnalysisTests", dependencies: ["FoldbackAnalysis", "FoldbackEngine", "FoldbackDSP"]),
        .testTarget(name: "FoldbackLV2Tests", dependencies: ["FoldbackLV2", "FoldbackEngine", "CLilv", "CFoldbackLV2"]),
        .testTarget(name: "FoldbackControlTests", dependencies: ["FoldbackControl", "FoldbackPresets", "FoldbackEngine"]),
        .testTarget(name: "FoldbackWebTests", dependencies: ["FoldbackWeb", "FoldbackControl", "FoldbackAnalysis", "FoldbackPresets", "FoldbackEngine", "FoldbackDSP"]),
        .testTarget(name: "FoldbackCLITests", dependencies: ["foldback", "FoldbackLive", "FoldbackRender", "FoldbackEngine", "FoldbackControl", "FoldbackAnalysis", "FoldbackTestSupport"]),
        .testTarget(name: "FoldbackRealtimeTests", dependencies: ["foldback-rtcheck", "FoldbackTestSupport"]),
        .testTarget(
            name: "FoldbackIntegrationTests",
            dependencies: ["FoldbackJACK", "FoldbackEngine", "FoldbackRender", "FoldbackLV2", "FoldbackControl", "FoldbackPresets", "FoldbackWeb", "FoldbackFeedback", "CLo", "foldback", "FoldbackTestSupport"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
