// Runs Debian's swh amp and x42 fil4 through LV2Unit and checks measured gains and responses. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2
import XCTest

final class LV2UnitTests: XCTestCase {
    static let amp = "http://plugin.org.uk/swh-plugins/amp"
    static let fil4Mono = "http://gareus.org/oss/lv2/fil4#mono"
    static let blocks = [1, 7, 253, 1024]

    /// swh amp: output = input × 10^(gain/20) to 1e-6, at every block size, dual mono on a stereo strip.
    func testAmpGainIsExactOnStereoStrip() throws {
        for block in Self.blocks {
            let unit = try LV2Unit(uri: Self.amp, controls: ["gain": 6])
            let driver = try UnitDriver(unit, channels: 2)
            XCTAssertEqual(driver.slot.inputChannels, 2)
            XCTAssertEqual(driver.slot.outputChannels, 2)
            let left = UnitDriver.sine(440, amplitude: 0.25, frames: 4096)
            let right = UnitDriver.sine(1000, amplitude: 0.1, frames: 4096)
            let output = driver.run([left, right], block: block)
            let gain = Float(pow(10, 6.0 / 20))
            for frame in 0..<4096 {
                XCTAssertEqual(output[0][frame], left[frame] * gain, accuracy: 1e-6, "block \(block) frame \(frame)")
                XCTAssertEqual(output[1][frame], right[frame] * gain, accuracy: 1e-6, "block \(block) frame \(frame)")
            }
        }
    }

    /// A gain change through setParameter reaches the control port on the next cycle.
    func testAmpParameterChangeAppliesNextCycle() throws {
        let unit = try LV2Unit(uri: Self.amp)
        XCTAssertEqual(unit.parameters.map(\.key), ["gain"])
        let driver = try UnitDriver(unit, channels: 1)
        driver.slot.functions.setParameter(driver.slot.state, 0, -20)
        let input = [Float](repeating: 0.5, count: 64)
        let output = driver.run([input], block: 64)
        XCTAssertEqual(output[0][10], 0.05, accuracy: 1e-6)
    }

    /// fil4 (needs urid:map, has atom ports): a +12 dB low shelf at 80 Hz lifts 40 Hz by about 11 dB and leaves 5 kHz alone.
    func testFil4LowShelfResponse() throws {
        for block in Self.blocks {
            let unit = try LV2Unit(uri: Self.fil4Mono, controls: ["LSsec": 1, "LSfreq": 80, "LSgain": 12, "LSq": 1])
            let driver = try UnitDriver(unit, channels: 1)
            func gainDB(_ frequency: Double) -> Float {
                let input = UnitDriver.sine(frequency, amplitude: 0.1, frames: 48000)
                let output = driver.run([input], block: block)
                return 20 * log10(UnitDriver.rms(output[0], 24000..<48000) / UnitDriver.rms(input, 24000..<48000))
            }
            XCTAssertEqual(gainDB(30), 12, accuracy: 1.5, "block \(block)")
            XCTAssertEqual(gainDB(5000), 0, accuracy: 0.5, "block \(block)")
        }
    }

    /// The same shelf at 44.1 and 96 kHz: the plugin gets the rate and the response stays put.
    func testFil4LowShelfAtOtherRates() throws {
        for rate in [44100.0, 96000.0] {
            let unit = try LV2Unit(uri: Self.fil4Mono, controls: ["LSsec": 1, "LSfreq": 80, "LSgain": 12, "LSq": 1])
            let driver = try UnitDriver(unit, channels: 1, sampleRate: rate)
            let frames = Int(rate)
            let low = UnitDriver.sine(30, amplitude: 0.1, frames: frames, sampleRate: rate)
            let output = driver.run([low], block: 253)
            let gain = 20 * log10(UnitDriver.rms(output[0], frames / 2..<frames) / UnitDriver.rms(low, frames / 2..<frames))
            XCTAssertEqual(gain, 12, accuracy: 1.5, "\(rate) Hz")
        }
    }

    /// Unknown control symbols and out-of-range values are refused with the plugin's symbols / range.
    func testControlErrorsNameSymbolsAndRange() {
        XCTAssertThrowsError(try LV2Unit(uri: Self.amp, controls: ["gian": 1])) { error in
            XCTAssertTrue("\(error)".contains("its controls: gain"), "\(error)")
        }
        XCTAssertThrowsError(try LV2Unit(uri: Self.amp, controls: ["gain": 100])) { error in
            XCTAssertTrue("\(error)".contains("allowed: -70.0 to 70.0"), "\(error)")
        }
        XCTAssertThrowsError(try LV2Unit(uri: "http://plugin.org.uk/swh-plugins/ampp")) { error in
            XCTAssertTrue("\(error)".contains(Self.amp), "\(error)")
        }
    }
}
