// The faulty test bundle compiled at test time: lilv lists all six, the pass-through is exact, the harmless faults fire on cue. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2
import FoldbackTestSupport
import Foundation
import XCTest

final class FaultyPluginBundleTests: XCTestCase {
    static let blocks = [1, 7, 253, 1024]

    private func world() throws -> LV2World {
        LV2World(path: try FaultyPluginBundle.build().lv2Path)
    }

    /// lilv finds every plugin of the bundle, and the catalogue presets are checked against describes their ports.
    func testLilvAndTheCatalogueFindEveryPlugin() throws {
        let world = try world()
        XCTAssertEqual(Set(world.plugins().map(\.uri)), Set(FaultyPlugin.allCases.map(\.uri)))
        let catalog = LV2PluginCatalog(world: world)
        for plugin in FaultyPlugin.allCases {
            let description = try catalog.plugin(uri: plugin.uri)
            XCTAssertEqual(description.audioInputs, ["in"], plugin.rawValue)
            XCTAssertEqual(description.audioOutputs, ["out"], plugin.rawValue)
            XCTAssertNil(description.unsupportedReason, plugin.rawValue)
            let controls = description.controls.map(\.key)
            XCTAssertEqual(Array(controls.prefix(3)), plugin == .passThrough ? ["gain"] : ["gain", "trigger", "fault_after_s"], plugin.rawValue)
        }
        XCTAssertEqual(try catalog.plugin(uri: FaultyPlugin.hang.uri).controls.map(\.key).last, "busy")
        XCTAssertEqual(try catalog.plugin(uri: FaultyPlugin.sleepOnce.uri).controls.map(\.key).last, "sleep_ms")
        XCTAssertEqual(try catalog.plugin(uri: FaultyPlugin.nan.uri).controls.map(\.key).last, "kind")
        XCTAssertEqual(try FaultyPluginBundle.build().bundlePath, try FaultyPluginBundle.build().bundlePath, "built once per process")
    }

    /// The control plugin: output = input × gain exactly (one float multiply), at every block size and three rates.
    func testPassThroughIsInputTimesGain() throws {
        let world = try world()
        for rate in [44100.0, 48000, 96000] {
            for block in Self.blocks {
                for gain: Float in [1, 0.25, 3.5] {
                    let unit = try LV2Unit(uri: FaultyPlugin.passThrough.uri, controls: ["gain": gain], world: world)
                    let driver = try UnitDriver(unit, channels: 1, sampleRate: rate)
                    let input = UnitDriver.sine(997, amplitude: 0.5, frames: 3000, sampleRate: rate)
                    let output = driver.run([input], block: block)[0]
                    for frame in input.indices where output[frame] != input[frame] * gain {
                        return XCTFail("rate \(rate) block \(block) gain \(gain) frame \(frame): \(output[frame]) ≠ \(input[frame] * gain)")
                    }
                }
            }
        }
    }

    /// The faulty ones play input × gain until their fault too; `fault_after_s` counts frames: the NaN plugin's
    /// output turns NaN in the very block that reaches 0.1 s of audio (4800 frames at 48 kHz), not before.
    func testNaNStartsInTheBlockThatReachesFaultAfter() throws {
        let world = try world()
        for block in Self.blocks {
            let unit = try LV2Unit(uri: FaultyPlugin.nan.uri, controls: ["gain": 2, "fault_after_s": 0.1], world: world)
            let driver = try UnitDriver(unit, channels: 1)
            let input = UnitDriver.sine(440, amplitude: 0.25, frames: 6000)
            let output = driver.run([input], block: block)[0]
            let faultBlockStart = (4800 - 1) / block * block
            XCTAssertEqual(output.firstIndex { $0.isNaN }, faultBlockStart, "block \(block)")
            XCTAssertTrue(output[faultBlockStart...].allSatisfy(\.isNaN), "block \(block): NaN until re-activated")
            for frame in 0..<faultBlockStart where output[frame] != input[frame] * 2 {
                return XCTFail("block \(block) frame \(frame): \(output[frame]) before the fault")
            }
        }
    }

    /// With `fault_after_s = 0` only `trigger`'s rising edge faults; `kind` 2 is +60 dB garbage, `kind` 1 +Inf.
    func testTriggerCuesTheFaultAndKindChoosesTheGarbage() throws {
        let world = try world()
        for (kind, expected) in [(Float(2), { (x: Float) in x * 1000 }), (1, { _ in Float.infinity })] {
            let unit = try LV2Unit(uri: FaultyPlugin.nan.uri, controls: ["fault_after_s": 0, "kind": kind], world: world)
            let driver = try UnitDriver(unit, channels: 1)
            let input = UnitDriver.sine(440, amplitude: 0.25, frames: 512)
            XCTAssertEqual(driver.run([input], block: 64)[0], input, "kind \(kind): no fault without a cue")
            driver.slot.functions.setParameter(driver.slot.state, 1, 1)  // trigger
            XCTAssertEqual(driver.run([input], block: 64)[0], input.map(expected), "kind \(kind)")
        }
    }

    /// sleep-once: each cue makes one `run()` at least `sleep_ms` late; its output and every later block stay exact.
    func testSleepOnceIsOneLateCyclePerCue() throws {
        let world = try world()
        let unit = try LV2Unit(uri: FaultyPlugin.sleepOnce.uri, controls: ["fault_after_s": 0, "sleep_ms": 30], world: world)
        let driver = try UnitDriver(unit, channels: 1)
        let input = UnitDriver.sine(440, amplitude: 0.25, frames: 256)
        XCTAssertEqual(driver.run([input], block: 256)[0], input)
        driver.slot.functions.setParameter(driver.slot.state, 1, 1)
        let start = Date()
        let late = driver.run([input], block: 256)[0]
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(elapsed, 0.030, "the cued cycle sleeps sleep_ms")
        XCTAssertEqual(late, input)
        XCTAssertEqual(driver.run([input], block: 256)[0], input, "behaves after")
    }
}
