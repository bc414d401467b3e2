// The faulty test plugins through Foldback's own hosting, offline: `foldback plugins` lists them, `foldback render` plays the clean ones exactly and dies of the crashing ones' signals. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackTestSupport
import Foundation
import XCTest

final class FaultyPluginRenderTests: XCTestCase {
    private var files: RenderFixtures!
    private var lv2Path = ""
    private let input = RenderFixtures.sine(9600, frequency: 997, rate: 48000, amplitude: 0.25)   // 0.2 s

    override func setUpWithError() throws {
        files = try RenderFixtures()
        lv2Path = try FaultyPluginBundle.build().lv2Path
        try files.write("in.wav", [input])
    }

    override func tearDown() { files.remove() }

    /// `foldback render` of `plugin` with `controls` (TOML inline table body) on one mono strip, no limiter.
    private func render(_ plugin: FaultyPlugin, _ controls: String) throws -> FoldbackRun {
        let preset = try files.preset("p.toml", RenderFixtures.chain(units: """
              [[strip.unit]]
              type = "lv2"
              uri = "\(plugin.uri)"
              controls = { \(controls) }
            """))
        return try FoldbackProcess.run(["render", preset, "-i", files.path("in.wav"), "-o", files.path("out.wav"), "--tail", "0",
                                        "--format", "wav32f"], environment: ["LV2_PATH": lv2Path])
    }

    func testFoldbackPluginsListsAllSix() throws {
        let run = try FoldbackProcess.run(["plugins", "faulty"], environment: ["LV2_PATH": lv2Path])
        XCTAssertEqual(run.status, 0, run.standardError)
        for plugin in FaultyPlugin.allCases { XCTAssertTrue(run.standardOutput.contains(plugin.uri), "\(plugin): \(run.standardOutput)") }
    }

    /// The pass-through, and sleep-once (a late run() is harmless offline): output = input × gain, sample for sample.
    func testCleanPluginsRenderInputTimesGain() throws {
        for (plugin, controls) in [(FaultyPlugin.passThrough, "gain = 2"), (.sleepOnce, "gain = 2, fault_after_s = 0.05, sleep_ms = 20")] {
            let run = try render(plugin, controls)
            XCTAssertEqual(run.status, 0, "\(plugin): \(run.standardError)")
            let output = try files.read("out.wav").channels[0]
            XCTAssertEqual(output.count, input.count, "\(plugin)")
            XCTAssertLessThanOrEqual(RenderFixtures.maxDifference([output], [input.map { $0 * 2 }]), 1e-6, "\(plugin)")
        }
    }

    /// The segfault plugin kills the render with SIGSEGV once 0.05 s has run; the abort one with SIGABRT at
    /// instantiation. No output file is left either way (renders are written atomically).
    func testCrashingPluginsKillTheProcessWithTheirSignal() throws {
        for (plugin, controls, signal) in [(FaultyPlugin.segfault, "fault_after_s = 0.05", SIGSEGV), (.abortAtInstantiate, "gain = 1", SIGABRT)] {
            let run = try render(plugin, controls)
            XCTAssertEqual(run.status, signal, "\(plugin): \(run.standardError)")
            XCTAssertFalse(files.contents.contains("out.wav"), "\(plugin)")
        }
    }

    /// The NaN plugin from 0.05 s on: the output before is exact, and no NaN reaches the file (the engine's guard
    /// silences the strip and restarts the plugin, which counts its 0.05 s again).
    func testNaNPluginNeverReachesTheFile() throws {
        let run = try render(.nan, "gain = 2, fault_after_s = 0.05")
        XCTAssertEqual(run.status, 0, run.standardError)
        let output = try files.read("out.wav").channels[0]
        XCTAssertTrue(output.allSatisfy(\.isFinite))
        XCTAssertLessThanOrEqual(RenderFixtures.maxDifference([Array(output[..<2048])], [input[..<2048].map { $0 * 2 }]), 1e-6)
        let silenced = zip(output, input).enumerated().filter { $0.element.0 == 0 && $0.element.1 != 0 }.map(\.offset)
        XCTAssertEqual(silenced.first, 2048, "the guard silences from the render block (2048 frames) where the NaN starts at 2400")
        XCTAssertLessThan(silenced.last ?? .max, input.count - 1, "the restarted plugin plays again before the end")
        print("FaultyPluginRenderTests: NaN plugin: \(silenced.count) of \(input.count) frames silenced, from \(silenced.first ?? -1) to \(silenced.last ?? -1)")
    }
}
