// Host features with Debian plugins: control outputs (darc), a reverb tail and mono→stereo (mda Ambience), LV2 presets, state save/restore. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
@testable import FoldbackLV2
import Foundation
import XCTest

final class LV2HostingTests: XCTestCase {
    /// darc's `gain_min` control output is read back and shows more reduction for a louder input.
    func testDarcGainReductionFollowsInputLevel() throws {
        for block in [1, 7, 253, 1024] {
            let unit = try LV2Unit(uri: "http://gareus.org/oss/lv2/darc#mono", controls: ["threshold": -30, "Ratio": 1])
            let driver = try UnitDriver(unit, channels: 1)
            func gainMin(amplitude: Float) -> Float? {
                _ = driver.run([UnitDriver.sine(1000, amplitude: amplitude, frames: 24000)], block: block)
                return unit.meterReadings().first { $0.key == "gain_min" }?.value
            }
            let quiet = try XCTUnwrap(gainMin(amplitude: 0.003))   // about -50 dBFS, below threshold
            let loud = try XCTUnwrap(gainMin(amplitude: 0.5))      // about -6 dBFS, far above
            XCTAssertEqual(quiet, 20, accuracy: 1, "block \(block): below threshold darc applies its full +20 dB")
            XCTAssertLessThan(loud, quiet - 6, "block \(block): a loud input gets more than 6 dB less gain")
        }
    }

    /// darc's `lv2:enabled` port is the slot's self-bypass parameter: writing 0 to it (what the engine's
    /// bypass does) makes darc pass the input through itself, at unity, while it keeps running.
    func testEnabledDesignationIsTheSelfBypassParameter() throws {
        let unit = try LV2Unit(uri: "http://gareus.org/oss/lv2/darc#mono", controls: ["threshold": -40, "Ratio": 1])
        let driver = try UnitDriver(unit, channels: 1)
        let index = try XCTUnwrap(driver.slot.selfBypassParameter, "darc designates lv2:enabled")
        XCTAssertEqual(unit.parameters[index].key, "enable")
        let input = UnitDriver.sine(1000, amplitude: 0.5, frames: 48000)
        let active = driver.run([input], block: 253)[0]
        let processed = UnitDriver.rms(active, 24000..<48000) / UnitDriver.rms(input, 24000..<48000)
        XCTAssertLessThan(20 * log10(processed), -3, "enabled, darc compresses a -6 dBFS sine by more than 3 dB")
        driver.slot.functions.setParameter(driver.slot.state, Int32(index), 0)
        let bypassed = driver.run([input], block: 253)[0]
        let dry = UnitDriver.rms(bypassed, 24000..<48000) / UnitDriver.rms(input, 24000..<48000)
        XCTAssertEqual(20 * log10(dry), 0, accuracy: 0.1, "disabled through lv2:enabled, darc passes the input at unity")
        let plain = try UnitDriver(LV2Unit(uri: "http://plugin.org.uk/swh-plugins/amp"), channels: 1)
        XCTAssertNil(plain.slot.selfBypassParameter, "a plugin without lv2:enabled is bypassed by the engine's crossfade")
    }

    /// swh plate (mono in, stereo out) on a mono strip makes it stereo and rings on after a burst ends.
    func testReverbOnMonoStripIsStereoWithTail() throws {
        let unit = try LV2Unit(uri: "http://plugin.org.uk/swh-plugins/plate", controls: ["time": 4, "wet": 1])
        let driver = try UnitDriver(unit, channels: 1)
        XCTAssertEqual(driver.slot.outputChannels, 2, "a stereo plugin makes a mono strip stereo")
        var input = UnitDriver.sine(700, amplitude: 0.5, frames: 4800)
        input += [Float](repeating: 0, count: 24000)
        let output = driver.run([input], block: 253)
        for channel in 0..<2 {
            let tail = UnitDriver.rms(output[channel], 4800 + 4800..<4800 + 9120)   // 100 to 190 ms after the burst
            XCTAssertGreaterThan(20 * log10(tail), -50, "channel \(channel) has a tail above -50 dBFS")
        }
    }

    /// An LV2 preset applies by label, then `controls` override it.
    func testPresetByLabelThenControls() throws {
        let uri = "http://drobilla.net/plugins/mda/Detune"
        let unit = try LV2Unit(uri: uri, controls: ["output": 0.25], preset: "out of tune")
        _ = try unit.prepare(channels: 2, sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual(try XCTUnwrap(unit.controlValue("detune")), 0.8, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(unit.controlValue("mix")), 0.7, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(unit.controlValue("output")), 0.25, accuracy: 1e-6)
        XCTAssertThrowsError(try LV2Unit(uri: uri, preset: "Nope")) { error in
            XCTAssertTrue("\(error)".contains("Symphonic"), "\(error)")
        }
    }

    /// A saved state restores the control values: swh amp at −12 dB saved, reloaded, measured.
    func testStateSavedAndRestored() throws {
        let directory = NSTemporaryDirectory() + "foldback-lv2-state-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saved = try LV2Unit(uri: "http://plugin.org.uk/swh-plugins/amp", controls: ["gain": -12])
        _ = try saved.prepare(channels: 1, sampleRate: 48000, maxFrames: 64)
        let path = try saved.saveState(to: directory).path
        let restored = try LV2Unit(uri: "http://plugin.org.uk/swh-plugins/amp", stateFile: path)
        let driver = try UnitDriver(restored, channels: 1)
        let output = driver.run([[Float](repeating: 1, count: 16)], block: 7)
        XCTAssertEqual(output[0][15], Float(pow(10, -12.0 / 20)), accuracy: 1e-6)
    }
}

/// The block-length options plugins get: the JACK period (or render block) as nominal, the chunk as maximum.
final class LV2BlockLengthOptionTests: XCTestCase {
    func testNominalBlockLengthIsThePeriodAndNeverAboveTheMaximum() throws {
        for (hosting, maxFrames, expected) in [
            (PluginHosting.live(period: 256), 4096, 256), (.offline(block: 64), 4096, 64),
            (.live, 1024, 1024), (.live(period: 8192), 4096, 4096),
        ] {
            let unit = try LV2Unit(uri: "http://plugin.org.uk/swh-plugins/amp", hosting: hosting)
            _ = try unit.prepare(channels: 2, sampleRate: 48000, maxFrames: maxFrames)
            XCTAssertEqual(unit.nominalBlockLengths, [expected, expected], "\(hosting), max \(maxFrames): both dual-mono instances")
        }
    }
}
