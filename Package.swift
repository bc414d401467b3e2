// swift-tools-version: 6.1
// SPDX-License-Identifier: GPL-3.0-or-later
// Foldback: a JACK client hosting a realtime, live-performance mixing chain.
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Linux only (JACK, lilv and the other C libraries come from Debian); SwiftPM has no Linux entry for `platforms`, so none is
// declared. No target carries unsafe flags (SwiftPM refuses such a package as a dependency): the debug test build's
// speed for the live JACK tests comes from the Makefile (see `make unit` and DEVELOPERS.md, "Testing").
// Every target declares exactly the modules its files import: `scripts/check-imports.sh` (part of `make unit`).
let package = Package(
    name: "Foldback",
    products: [
        .executable(name: "foldback", targets: ["foldback"]),
        .executable(name: "foldback-probe", targets: ["foldback-probe"]),
        .executable(name: "foldback-rtcheck", targets: ["foldback-rtcheck"]),
        .executable(name: "foldback-fuzz", targets: ["foldback-fuzz"]),
        // The plugin sandbox Foldback starts for LV2 units with `isolation = "strip" | "unit"` (never started by hand).
        .executable(name: "foldback-sandbox", targets: ["foldback-sandbox"]),
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
        .systemLibrary(name: "CRubberBand", pkgConfig: "rubberband", providers: [.apt(["librubberband-dev"])]),
        .systemLibrary(name: "CLo", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CMySofa", pkgConfig: "libmysofa", providers: [.apt(["libmysofa-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
        .target(name: "CFoldback", dependencies: ["CJack", "CFoldbackTeam"]),
        .target(name: "CFoldbackTeam"),
        .target(name: "CFoldbackAllocCounter", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CFoldbackLV2"),
        .target(name: "CFoldbackFuzz"),
        // The plugin sandbox's shared-memory channel (memfd, futex with a deadline; includes CFoldbackTeam's realtime marks).
        .target(name: "CFoldbackSandbox", dependencies: ["CFoldbackTeam"]),

        // MARK: Realtime core
        .target(name: "FoldbackDSP", dependencies: ["CFFTW"], swiftSettings: strictSwift),
        .target(
            name: "FoldbackEngine",
            dependencies: ["FoldbackDSP", "CFoldbackTeam", .product(name: "Atomics", package: "swift-atomics")],
            swiftSettings: strictSwift
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
        // The only code calling `jack_*` for the product (the JACK test clients live in FoldbackJACKTesting).
        .target(
            name: "FoldbackJACK",
            dependencies: [
                "CJack", "CFoldback", "FoldbackEngine",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // LV2 plugins in sandbox processes: the unit Foldback's graph holds, the supervisor, and the sandbox's own side.
        .target(
            name: "FoldbackSandbox",
            dependencies: [
                "CFoldbackSandbox", "CFoldbackTeam", "FoldbackEngine", "FoldbackLV2", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(name: "foldback-sandbox", dependencies: ["FoldbackSandbox"], swiftSettings: strictSwift),
        .target(
            name: "FoldbackFeedback",
            dependencies: [
                "FoldbackEngine", "FoldbackDSP", "FoldbackAnalysis",
                .product(name: "Atomics", package: "swift-atomics"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .target(name: "FoldbackRender", dependencies: ["CSndfile", "CSamplerate", "CRubberBand", "CFoldback", "FoldbackEngine"], swiftSettings: strictSwift),
        .target(name: "FoldbackAnalysis", dependencies: ["CEBUR128", "FoldbackEngine", "FoldbackDSP"], swiftSettings: strictSwift),
        // SOFA HRTF files (libmysofa) read into FoldbackDSP's `HRIRSet` for binaural buses, at the engine's rate.
        .target(name: "FoldbackHRTF", dependencies: ["CMySofa", "FoldbackDSP"], swiftSettings: strictSwift),

        // MARK: Drawings of what the engine does (the response plot, out of the CLI; a web page may use it too)
        .target(name: "FoldbackPlot", dependencies: ["FoldbackDSP"], swiftSettings: strictSwift),

        // MARK: Presets, the graph a preset builds, and live control
        // The preset model, parsing and validation (an `lv2` unit is checked against the `PluginCatalog` the caller passes:
        // FoldbackLV2's installed plugins, through FoldbackGraph's `PresetLoader.load(path:)`, or a fixed list in tests).
        .target(
            name: "FoldbackPresets",
            dependencies: ["FoldbackEngine", "FoldbackDSP", "TOMLKit"],
            swiftSettings: strictSwift
        ),
        // A preset's engine graph: units made from specs (built-in, LV2, feedback), connections, and capturing a running
        // graph's plugin states and ring-out notches back into a preset.
        .target(
            name: "FoldbackGraph",
            dependencies: [
                "FoldbackPresets", "FoldbackEngine", "FoldbackDSP", "FoldbackLV2", "FoldbackSandbox", "FoldbackFeedback", "FoldbackRender", "FoldbackPlot",
                "FoldbackHRTF",
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "FoldbackControl",
            dependencies: ["CLo", "FoldbackEngine", "FoldbackDSP", "FoldbackPresets", "FoldbackGraph", "FoldbackAnalysis"],
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
        // The X32 / X-Air surface: those consoles' OSC protocol mapped onto the parameter tree, driving the same router.
        .target(
            name: "FoldbackX32",
            dependencies: ["FoldbackControl", "FoldbackEngine", "FoldbackPresets"],
            swiftSettings: strictSwift
        ),
        // MARK: The live session (what `foldback run` runs), driven by the CLI, OSC, MIDI and the web surface
        .target(
            name: "FoldbackLive",
            dependencies: [
                "FoldbackControl", "FoldbackWeb", "FoldbackX32", "FoldbackPresets", "FoldbackGraph", "FoldbackJACK", "FoldbackEngine", "FoldbackDSP",
                "FoldbackRender", "FoldbackAnalysis", "CFoldback", "CSystemd", "CAvahi",
            ],
            swiftSettings: strictSwift
        ),
        // `foldback bench`: offline cases timed on this thread, and `--live`, whose strips a JACK test player feeds with
        // noise (so the `foldback` executable links FoldbackJACKTesting for this command alone; `run` never uses it).
        .target(
            name: "FoldbackBench",
            dependencies: [
                "FoldbackLive", "FoldbackJACK", "FoldbackJACKTesting", "FoldbackPresets", "FoldbackGraph", "FoldbackEngine", "FoldbackRender",
                "FoldbackLV2", "FoldbackSandbox", "CFoldback",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "foldback",
            dependencies: [
                "FoldbackLive", "FoldbackBench", "FoldbackPresets", "FoldbackGraph",
                "FoldbackEngine", "FoldbackRender", "FoldbackLV2", "FoldbackPlot", "CFoldback",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "foldback-probe",
            dependencies: [
                "FoldbackJACK", "FoldbackJACKTesting", "FoldbackRender", "FoldbackEngine", "FoldbackFeedback",
                "FoldbackFeedbackTesting", "CFoldback",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "foldback-rtcheck",
            dependencies: [
                "FoldbackEngine", "FoldbackDSP", "FoldbackLV2", "FoldbackSandbox", "FoldbackAnalysis", "FoldbackFeedback", "FoldbackRender", "CFoldback", "FoldbackHRTF",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Atomics", package: "swift-atomics"),
            ],
            swiftSettings: strictSwift
        ),

        .executableTarget(
            name: "foldback-fuzz",
            dependencies: ["FoldbackPresets", "FoldbackLV2", "FoldbackDSP", "FoldbackWeb", "CFoldbackFuzz", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSwift
        ),

        // MARK: Test support: the tests use it; of the products only foldback-probe and FoldbackBench link any of it, never `foldback run`
        // Helpers the tests share: bounded process waits, a pseudo-terminal, a WebSocket client.
        // With the faulty LV2 test plugins (FaultyPlugins/: C and Turtle the tests compile at run time, not SwiftPM).
        .target(name: "FoldbackTestSupport", dependencies: ["FoldbackEngine"], exclude: ["FaultyPlugins"], swiftSettings: strictSwift),
        // JACK clients that play deterministic signals into a system under test, record it, send it MIDI, or close a
        // feedback loop through a room model.
        .target(
            name: "FoldbackJACKTesting",
            dependencies: ["CJack", "FoldbackJACK", "FoldbackEngine", "FoldbackDSP", .product(name: "Atomics", package: "swift-atomics")],
            swiftSettings: strictSwift
        ),
        // The simulated stage (a mic, a wedge and a room) the feedback tests and `make feedback-demo` howl on.
        .target(name: "FoldbackFeedbackTesting", dependencies: ["FoldbackFeedback", "FoldbackEngine", "FoldbackDSP"], swiftSettings: strictSwift),

        // MARK: Tests
        .testTarget(name: "FoldbackDSPTests", dependencies: ["FoldbackDSP", "FoldbackEngine"]),
        .testTarget(name: "FoldbackEngineTests", dependencies: ["FoldbackEngine", "FoldbackDSP", "CFoldbackTeam", "FoldbackTestSupport", .product(name: "Atomics", package: "swift-atomics")]),
        .testTarget(name: "FoldbackPresetsTests", dependencies: ["FoldbackPresets", "FoldbackGraph", "FoldbackEngine", "FoldbackDSP", "FoldbackLV2", "FoldbackFeedback", "TOMLKit"]),
        .testTarget(name: "FoldbackFeedbackTests", dependencies: ["FoldbackFeedback", "FoldbackFeedbackTesting", "FoldbackDSP", "FoldbackEngine", "FoldbackJACK", "FoldbackJACKTesting", "FoldbackRender", "FoldbackPresets", "FoldbackGraph", "CFoldbackTeam"]),
        .testTarget(name: "FoldbackRenderTests", dependencies: ["FoldbackRender", "FoldbackEngine", "FoldbackTestSupport"]),
        .testTarget(name: "FoldbackPlotTests", dependencies: ["FoldbackPlot", "FoldbackDSP"]),
        .testTarget(name: "FoldbackHRTFTests", dependencies: ["FoldbackHRTF", "FoldbackDSP", "CFFTW"]),
        .testTarget(name: "FoldbackAnalysisTests", dependencies: ["FoldbackAnalysis", "FoldbackEngine", "FoldbackDSP", "CEBUR128"]),
        .testTarget(name: "FoldbackLV2Tests", dependencies: ["FoldbackLV2", "FoldbackEngine", "CLilv", "CFoldbackLV2", "FoldbackTestSupport"]),
        .testTarget(name: "FoldbackControlTests", dependencies: ["FoldbackControl", "FoldbackX32", "FoldbackPresets", "FoldbackGraph", "FoldbackEngine", "FoldbackDSP"]),
        .testTarget(name: "FoldbackWebTests", dependencies: ["FoldbackWeb", "FoldbackControl", "FoldbackAnalysis", "FoldbackPresets", "FoldbackGraph", "FoldbackEngine", "FoldbackDSP", "FoldbackTestSupport"]),
        .testTarget(name: "FoldbackCLITests", dependencies: ["foldback", "FoldbackLive", "FoldbackPresets", "FoldbackBench", "FoldbackRender", "FoldbackEngine", "FoldbackDSP", "FoldbackControl", "FoldbackAnalysis", "FoldbackTestSupport", "FoldbackGraph", "CFoldback"]),
        .testTarget(
            name: "FoldbackSandboxTests",
            dependencies: [
                "FoldbackSandbox", "CFoldbackSandbox", "FoldbackLV2", "FoldbackEngine", "FoldbackPresets", "FoldbackGraph", "FoldbackTestSupport",
                "foldback-sandbox",
            ]
        ),
        .testTarget(name: "FoldbackRealtimeTests", dependencies: ["foldback-rtcheck"]),
        .testTarget(
            name: "FoldbackIntegrationTests",
            dependencies: [
                "FoldbackJACK", "FoldbackJACKTesting", "FoldbackEngine", "FoldbackRender", "FoldbackLV2", "FoldbackControl", "FoldbackPresets",
                "FoldbackGraph", "FoldbackWeb", "FoldbackFeedback", "FoldbackFeedbackTesting", "FoldbackLive", "FoldbackTestSupport", "foldback",
                "FoldbackX32", "FoldbackDSP", "FoldbackHRTF",
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
