// The NaN guard's reset of an LV2 unit: the plugin is restarted off the audio thread and faded back in. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
@testable import FoldbackLV2
import Foundation
import XCTest

final class LV2RestartTests: XCTestCase {
    /// swh's comb filter feeds its output back, so one NaN circulates in it for good (x42 fil4, swh amp and
    /// gverb, mda DubDelay recover by themselves); `activate` clears its delay line.
    static let comb = "http://plugin.org.uk/swh-plugins/comb_n"
    static let controls: [String: Float] = ["delay_time": 0.01, "decay_time": 0.05]

    /// Runs 4800 frames of a 440 Hz sine (with a NaN at frame 100 when `poisoned`), then 9600 clean frames.
    private func prepared(_ unit: LV2Unit, poisoned: Bool) throws -> (driver: UnitDriver, after: [Float]) {
        let driver = try UnitDriver(unit, channels: 1, maxFrames: 256)
        var input = UnitDriver.sine(440, frames: 4800)
        if poisoned { input[100] = .nan }
        _ = driver.run([input], block: 256)
        return (driver, driver.run([UnitDriver.sine(440, frames: 9600)], block: 256)[0])
    }

    /// Calls the unit's reset as the engine's NaN guard does and waits (up to 5 s) for the worker thread to
    /// restart it; returns how long that took, in seconds.
    private func resetAndWait(_ unit: LV2Unit, _ driver: UnitDriver) -> TimeInterval {
        driver.slot.functions.reset(driver.slot.state)
        let requested = Date()
        while unit.isRestartPending && Date().timeIntervalSince(requested) < 5 { usleep(200) }
        XCTAssertFalse(unit.isRestartPending, "the worker thread restarts the plugin")
        return Date().timeIntervalSince(requested)
    }

    /// Live: the reset (what the engine's NaN guard calls on the audio thread) only raises a flag, and the
    /// worker thread restarts the plugin. Without it the NaN comes round every 10 ms; after it the output is
    /// finite and equals, within 1e-6, that of the same plugin fed the same input without the NaN and reset alike.
    func testResetClearsANaNCirculatingInAFeedbackPlugin() throws {
        let unit = try LV2Unit(uri: Self.comb, controls: Self.controls, hosting: .live)
        let (driver, kept) = try prepared(unit, poisoned: true)
        XCTAssertGreaterThanOrEqual(kept.filter { !$0.isFinite }.count, 19, "the NaN circulates: once per 480-frame period")
        let clean = try LV2Unit(uri: Self.comb, controls: Self.controls, hosting: .live)
        let (cleanDriver, cleanAfter) = try prepared(clean, poisoned: false)
        XCTAssertTrue(cleanAfter.allSatisfy(\.isFinite))

        let wait = resetAndWait(unit, driver)
        XCTAssertLessThan(wait, 1, "restarted within a second (took \(wait * 1000) ms)")
        _ = resetAndWait(clean, cleanDriver)
        let input = UnitDriver.sine(440, frames: 9600)
        let restarted = driver.run([input], block: 253)[0]
        let reference = cleanDriver.run([input], block: 253)[0]
        XCTAssertTrue(restarted.allSatisfy(\.isFinite), "no NaN after the restart")
        let worst = zip(restarted, reference).map { abs($0 - $1) }.max() ?? .infinity
        XCTAssertLessThanOrEqual(worst, 1e-6, "the NaN left no trace")
        XCTAssertGreaterThan(UnitDriver.rms(restarted, 4800..<9600), 0.1, "and the comb is audible")
    }

    /// After a restart the plugin's output fades in linearly over 5 ms (240 frames at 48 kHz), live and offline,
    /// on both instances of a dual-mono pair: swh amp at 0 dB gives input × (k + 1)/240, within 1e-6.
    func testTheRestartedPluginFadesIn() throws {
        for hosting in [PluginHosting.live, .offline] {
            let unit = try LV2Unit(uri: "http://plugin.org.uk/swh-plugins/amp", controls: ["gain": 0], hosting: hosting)
            let driver = try UnitDriver(unit, channels: 2, maxFrames: 256)
            _ = driver.run([UnitDriver.sine(440, frames: 1000), UnitDriver.sine(660, frames: 1000)], block: 256)
            _ = resetAndWait(unit, driver)
            let input = [UnitDriver.sine(440, frames: 1000), UnitDriver.sine(660, frames: 1000)]
            let output = driver.run(input, block: 7)
            for channel in 0..<2 {
                let expected = input[channel].enumerated().map { $0.element * min(1, Float($0.offset + 1) / 240) }
                let worst = zip(output[channel], expected).map { abs($0 - $1) }.max() ?? .infinity
                XCTAssertLessThanOrEqual(worst, 1e-6, "\(hosting), channel \(channel)")
            }
        }
    }

    /// Dual mono, offline: the reset restarts both instances at once on the calling thread (each had a NaN).
    func testOfflineResetRestartsEveryInstanceAtOnce() throws {
        let unit = try LV2Unit(uri: Self.comb, controls: Self.controls, hosting: .offline)
        let driver = try UnitDriver(unit, channels: 2, maxFrames: 256)
        var left = UnitDriver.sine(440, frames: 4800), right = UnitDriver.sine(660, frames: 4800)
        left[100] = .nan
        right[200] = .nan
        _ = driver.run([left, right], block: 256)
        driver.slot.functions.reset(driver.slot.state)
        XCTAssertFalse(unit.isRestartPending, "offline, nothing waits for another thread")
        let output = driver.run([UnitDriver.sine(440, frames: 9600), UnitDriver.sine(660, frames: 9600)], block: 61)
        for channel in 0..<2 {
            XCTAssertTrue(output[channel].allSatisfy(\.isFinite), "channel \(channel) is finite after the restart")
            XCTAssertGreaterThan(UnitDriver.rms(output[channel], 4800..<9600), 0.1)
        }
    }
}
