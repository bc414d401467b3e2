// Meters: bus peak and RMS of a full-scale sine, peak-hold release, the pre-fader strip meter and silent strips.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class MeterTests: XCTestCase {
    private let sampleRates: [Double] = [44100, 48000, 96000]

    /// Renders `seconds` of a full-scale 997 Hz sine through a mono strip into a mono bus.
    private func meteredSine(seconds: Double, sampleRate: Double, faderDB: Float = 0, blockSize: Int = 253) throws -> MeterSnapshot {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(TestGraph.single(gainDB: faderDB), sampleRate: sampleRate)
        let frames = TestSignal.frames(seconds: seconds, sampleRate: sampleRate)
        _ = host.render([TestSignal.sine(frames: frames, sampleRate: sampleRate)], blockSize: blockSize)
        return host.engine.meters()
    }

    func testFullScaleSineReadsPeakOneOnTheBus() throws {
        for sampleRate in sampleRates {
            for blockSize in [7, 253, 1024] {
                let meters = try meteredSine(seconds: 1, sampleRate: sampleRate, blockSize: blockSize)
                XCTAssertEqual(meters.buses.map(\.name), ["main"])
                XCTAssertEqual(meters.buses[0].reading.peak, 1, accuracy: 1e-3, "\(sampleRate) Hz, block \(blockSize)")
            }
        }
    }

    /// RMS → 0.7071 (±1e-2) after one second of a steady full-scale sine (VU-like: 99 % at 300 ms).
    func testFullScaleSineReadsRMS0_7071AfterOneSecond() throws {
        for sampleRate in sampleRates {
            let meters = try meteredSine(seconds: 1, sampleRate: sampleRate)
            XCTAssertEqual(meters.buses[0].reading.rms, 0.70710678, accuracy: 1e-2, "\(sampleRate) Hz")
        }
    }

    func testRMSSettlesOnTheSineRMS() throws {
        for sampleRate in sampleRates {
            let meters = try meteredSine(seconds: 3, sampleRate: sampleRate, blockSize: 1024)
            XCTAssertEqual(meters.buses[0].reading.rms, 0.70710678, accuracy: 2e-3, "\(sampleRate) Hz after 3 s")
            XCTAssertEqual(meters.strips[0].reading.rms, 0.70710678, accuracy: 2e-3)
        }
    }

    func testRMSRisesMonotonicallyAndIsBlockSizeIndependent() throws {
        var readings: [Float] = []
        for seconds in [0.1, 0.3, 0.6, 1.2] {
            let byLargeBlocks = try meteredSine(seconds: seconds, sampleRate: 48000, blockSize: 1024).buses[0].reading.rms
            let bySmallBlocks = try meteredSine(seconds: seconds, sampleRate: 48000, blockSize: 7).buses[0].reading.rms
            XCTAssertEqual(byLargeBlocks, bySmallBlocks, accuracy: 2e-3, "RMS ballistics do not depend on the block size (\(seconds) s)")
            readings.append(byLargeBlocks)
        }
        XCTAssertEqual(readings, readings.sorted(), "RMS rises toward the steady value")
        XCTAssertLessThan(readings[0], 0.99 * 0.70710678, "100 ms in, the RMS meter is still rising")
        XCTAssertEqual(readings[1], 0.70710678, accuracy: 0.01 * 0.70710678 + 1e-3, "VU-like: 99 % of the steady level at 300 ms")
    }

    func testStripMeterIsPreFaderAndBusMeterIsPostGain() throws {
        for sampleRate in sampleRates {
            let meters = try meteredSine(seconds: 3, sampleRate: sampleRate, faderDB: -20)
            XCTAssertEqual(meters.strips.map(\.name), ["vox"])
            XCTAssertEqual(meters.strips[0].reading.peak, 1, accuracy: 1e-3, "strip peak ignores the −20 dB fader")
            XCTAssertEqual(meters.buses[0].reading.peak, 0.1, accuracy: 1e-4, "bus peak follows the fader")
            XCTAssertEqual(meters.buses[0].reading.rms, 0.070710678, accuracy: 2e-4)
        }
    }

    func testPeakHoldFallsTwentyDecibelsIn1_7Seconds() throws {
        for sampleRate in sampleRates {
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
            try host.install(TestGraph.single(), sampleRate: sampleRate)
            let hold = TestSignal.frames(seconds: 1.7, sampleRate: sampleRate)
            var input = TestSignal.sine(frames: 4096, sampleRate: sampleRate)
            input[4000] = 1   // make sure the last loud frame is exactly 1
            _ = host.render([input], blockSize: 4096)   // one cycle: the peak is taken from it, then released
            _ = host.renderSilence(frames: hold, blockSize: hold)
            XCTAssertEqual(host.engine.meters().buses[0].reading.peak, 0.1, accuracy: 2e-3, "\(sampleRate) Hz: −20 dB after 1.7 s")
        }
    }

    func testMutedAndDisabledStripsDoNotReachTheBusMeter() throws {
        let description = GraphDescription(
            strips: [
                StripDescription(name: "a", channels: 1, sends: [SendDescription(bus: 0)], isMuted: true),
                StripDescription(name: "b", channels: 1, sends: [SendDescription(bus: 0)], isEnabled: false),
            ],
            buses: [BusDescription(name: "main", channels: 1)])
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
        try host.install(description, sampleRate: 48000)
        let sine = TestSignal.sine(frames: 48000, sampleRate: 48000)
        _ = host.render([sine, sine], blockSize: 1024)
        let meters = host.engine.meters()
        XCTAssertEqual(meters.buses[0].reading.peak, 0)
        XCTAssertEqual(meters.buses[0].reading.rms, 0)
        XCTAssertEqual(meters.strips[0].reading.peak, 1, accuracy: 1e-3, "a muted strip's pre-fader meter still shows its input")
        XCTAssertEqual(meters.strips[1].reading.peak, 0, "a disabled strip meters silence")
    }

    func testMetersAreEmptyBeforeAnyGraph() {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        let meters = engine.meters()
        XCTAssertTrue(meters.strips.isEmpty && meters.buses.isEmpty)
    }
}
