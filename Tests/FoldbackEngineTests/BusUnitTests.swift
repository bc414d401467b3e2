// Units on buses: run on the summed bus before its gain and limiter, live parameters, bypass, limiter ceiling live.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class BusUnitTests: XCTestCase {
    /// Two strips into one bus carrying a gain unit: the bus output is the sum, scaled by the unit.
    private func busWithGain(_ gainDB: Float, bypassed: Bool = false, limiter: LimiterSettings? = nil) -> GraphDescription {
        GraphDescription(
            strips: [
                StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)]),
                StripDescription(name: "gtr", channels: 1, sends: [SendDescription(bus: 0)]),
            ],
            buses: [BusDescription(name: "main", channels: 1, limiter: limiter, units: [GainUnit(gainDB: gainDB)], unitIDs: ["trim"], bypassedUnits: [bypassed])])
    }

    func testABusGainUnitScalesTheSummedBusByItsGain() throws {
        for sampleRate in [44100.0, 48000, 96000] {
            for blockSize in [1, 7, 253, 1024] where !(blockSize == 1 && sampleRate != 48000) {
                let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
                try host.install(busWithGain(-9), sampleRate: sampleRate)
                let vox = TestSignal.sine(frames: 4096, sampleRate: sampleRate, amplitude: 0.2)
                let gtr = TestSignal.sine(frames: 4096, frequency: 440, sampleRate: sampleRate, amplitude: 0.1)
                let output = host.render([vox, gtr], blockSize: blockSize)
                assertFullyWritten(output)
                let expected = zip(vox, gtr).map { ($0 + $1) * Decibels.linearGain(fromDecibels: -9) }
                assertSignalsEqual(output[0], expected, tolerance: 1e-6, "\(sampleRate) Hz, block \(blockSize)")
            }
        }
    }

    func testABusUnitParameterChangesLiveWithoutAClick() throws {
        let sampleRate = 48000.0
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
        try host.install(busWithGain(0), sampleRate: sampleRate)
        let frames = 24000
        let output = try host.render([TestSignal.dc(frames: frames, value: 0.25), TestSignal.dc(frames: frames, value: 0.25)], blockSize: 253) { cycle, _ in
            if cycle == 20 { try host.engine.set(.busUnitParameter(bus: 0, unit: 0, parameter: 0), to: -12) }
        }
        let settled = output[0].last ?? 0
        XCTAssertEqual(Double(Decibels.decibels(fromLinearGain: settled / 0.5)), -12, accuracy: 0.01, "the bus unit's gain moved live")
        let step = TestSignal.largestStep(output[0], in: 20 * 253..<frames)
        XCTAssertLessThan(step, 0.5 * 0.75 / 48 * 1.1, "smoothed over at least 1 ms (the gain unit's ramp): no click")
    }

    func testBypassingABusUnitCrossfadesToTheDrySum() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
        try host.install(busWithGain(-20), sampleRate: 48000)
        let frames = 9600
        let output = try host.render([TestSignal.dc(frames: frames, value: 0.25), TestSignal.dc(frames: frames, value: 0.25)], blockSize: 7) { cycle, _ in
            if cycle == 100 { try host.engine.set(.busUnitBypass(bus: 0, unit: 0), to: 1) }
        }
        XCTAssertEqual(output[0][600], 0.5 * Decibels.linearGain(fromDecibels: -20), accuracy: 1e-6)
        XCTAssertEqual(output[0][frames - 1], 0.5, accuracy: 1e-6, "bypassed: the dry bus sum")
        let rampFrames = TestSignal.frames(seconds: 0.005, sampleRate: 48000)
        XCTAssertLessThanOrEqual(TestSignal.largestStep(output[0]), TestSignal.clickFreeStep(delta: 0.45, frames: rampFrames), "a 5 ms crossfade")
    }

    func testAUnitStartingBypassedLeavesTheBusDry() throws {
        let host = OfflineEngine(maxFrames: 256, inputs: 2, outputs: 1)
        try host.install(busWithGain(-20, bypassed: true), sampleRate: 48000, graphMaxFrames: 256)
        let output = host.render([TestSignal.dc(frames: 512, value: 0.1), TestSignal.dc(frames: 512, value: 0.2)], blockSize: 253)
        XCTAssertEqual(output[0][511], 0.3, accuracy: 1e-6)
    }

    func testTheLimiterCeilingIsLive() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
        try host.install(busWithGain(0, limiter: LimiterSettings(ceilingDB: -1)), sampleRate: 48000)
        let frames = 24000
        let input = TestSignal.sine(frames: frames, sampleRate: 48000, amplitude: 0.6)
        let output = try host.render([input, input], blockSize: 253) { cycle, _ in
            if cycle == 40 {
                try host.engine.set(.busLimiterCeiling(bus: 0), to: -12)
                try host.engine.set(.busLimiterRelease(bus: 0), to: 20)
            }
        }
        let early = output[0][4000..<10000].map(abs).max() ?? 0
        let late = output[0][14000...].map(abs).max() ?? 0
        XCTAssertEqual(Double(Decibels.decibels(fromLinearGain: early)), -1, accuracy: 0.1, "limited at the preset's −1 dBFS")
        XCTAssertLessThanOrEqual(late, Decibels.linearGain(fromDecibels: -12) * 1.0001, "limited at the new −12 dBFS ceiling")
        XCTAssertThrowsError(try host.engine.set(.busLimiterCeiling(bus: 0), to: 3), "above 0 dBFS is refused")
    }

    func testABusWithoutALimiterHasNoLimiterParameters() throws {
        let host = OfflineEngine(maxFrames: 64, inputs: 2, outputs: 1)
        try host.install(busWithGain(0), sampleRate: 48000, graphMaxFrames: 64)
        XCTAssertThrowsError(try host.engine.set(.busLimiterCeiling(bus: 0), to: -3))
        XCTAssertThrowsError(try host.engine.set(.busUnitParameter(bus: 0, unit: 1, parameter: 0), to: -3), "no unit #1")
    }

    func testAStereoUnitOnAMonoBusIsFoldedToMono() throws {
        let description = GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])],
            buses: [BusDescription(name: "fx", channels: 1, units: [ProbeUnit(scale: 0.5, outputChannels: 2)])])
        let host = OfflineEngine(maxFrames: 64, inputs: 1, outputs: 1)
        try host.install(description, sampleRate: 48000, graphMaxFrames: 64)
        let output = host.render([TestSignal.dc(frames: 128, value: 0.4)], blockSize: 7)
        // The probe writes +0.2 left and −0.2 right (its widening marker): their mono fold is silence.
        XCTAssertEqual(output[0][127], 0, accuracy: 1e-7)
    }

    func testAPresetSwitchCrossfadesBetweenBusUnitSettings() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
        try host.install(busWithGain(-12), sampleRate: 48000)
        let frames = 9600
        let output = try host.render([TestSignal.dc(frames: frames, value: 0.25), TestSignal.dc(frames: frames, value: 0.25)], blockSize: 253) { cycle, _ in
            if cycle == 10 { try host.install(self.busWithGain(0), sampleRate: 48000) }
        }
        XCTAssertEqual(output[0][2000], 0.5 * Decibels.linearGain(fromDecibels: -12), accuracy: 1e-6)
        XCTAssertEqual(output[0][frames - 1], 0.5, accuracy: 1e-6, "the new graph's bus unit")
        let fadeFrames = TestSignal.frames(seconds: 0.010, sampleRate: 48000)
        XCTAssertLessThanOrEqual(
            TestSignal.largestStep(output[0]), TestSignal.clickFreeStep(delta: 0.5 - 0.125, frames: fadeFrames) * 1.6,
            "a 10 ms crossfade between the two bus chains (equal-gain law, steepest at its middle)")
    }

    func testANonFiniteBusUnitOutputIsSilencedAndCountedOnTheBus() throws {
        let description = GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])],
            buses: [BusDescription(name: "main", channels: 1, limiter: LimiterSettings(), units: [ProbeUnit(scale: .infinity)])])
        let host = OfflineEngine(maxFrames: 64, inputs: 1, outputs: 1)
        let graph = try host.install(description, sampleRate: 48000, graphMaxFrames: 64)
        let output = host.render([TestSignal.dc(frames: 256, value: 0.25)], blockSize: 64)
        XCTAssertTrue(output[0].allSatisfy { $0 == 0 }, "∞ from a bus unit never reaches the output or the limiter")
        XCTAssertEqual(graph.meters().buses[0].reading.guardTrips, 4, "one trip per guarded block, on the bus's meter")
    }

    func testABusCompressorPublishesItsGainReductionUnderTheBusName() throws {
        let description = GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])],
            buses: [BusDescription(name: "main", channels: 1, units: [CompressorUnit(values: ["threshold_db": -30, "ratio": 4])], unitIDs: ["glue"])])
        let host = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 1)
        let graph = try host.install(description, sampleRate: 48000, graphMaxFrames: 256)
        _ = host.render([TestSignal.sine(frames: 24000, sampleRate: 48000, amplitude: 0.5)], blockSize: 253)
        let unit = try XCTUnwrap(graph.meters().units.first)
        XCTAssertEqual(unit.strip, "bus/main")
        XCTAssertEqual(unit.unit, "glue")
        XCTAssertGreaterThan(unit.readings.first { $0.key == CompressorUnit.compressionKey }?.value ?? 0, 10, "−6 dBFS into a −30 dB, 4:1 compressor")
    }
}
