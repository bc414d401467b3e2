// The built-in `eq` unit in the engine: parameter indexing, live changes, stereo, setup checks, reset after NaN.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class EQUnitTests: XCTestCase {
    private let bus = [BusDescription(name: "main", channels: 1)]

    private func sixteenBands() -> [EQBand] {
        (0..<16).map { index in
            EQBand(type: index.isMultiple(of: 2) ? .peak : .notch, frequency: 50 * pow(1.4, Double(index)),
                   gainDB: Double(index % 5) - 2, q: index.isMultiple(of: 2) ? 1.2 : 12)
        }
    }

    func testParametersAreGainThenFourPerBandThenTheTypes() {
        let bands = sixteenBands()
        let unit = EQUnit(bands: bands, gainDB: -2)
        XCTAssertEqual(unit.typeName, "eq")
        XCTAssertEqual(unit.parameters.count, 1 + 5 * 16)
        XCTAssertEqual(unit.parameters[0].key, "gain_db")
        XCTAssertEqual(unit.parameters[0].defaultValue, -2)
        for band in 1...16 {
            let first = 4 * band - 3
            XCTAssertEqual(unit.parameters[first..<first + 4].map(\.key),
                           ["band\(band)_freq_hz", "band\(band)_gain_db", "band\(band)_q", "band\(band)_enabled"])
            XCTAssertEqual(Double(unit.parameters[first].defaultValue), bands[band - 1].frequency, accuracy: 1e-3)
            let type = unit.parameters[4 * 16 + band]
            XCTAssertEqual(type.key, "band\(band)_type")
            XCTAssertEqual(EQUnit.typeBand(parameter: 4 * 16 + band, bandCount: 16), band - 1)
            XCTAssertEqual(type.defaultValue, bands[band - 1].type.choiceValue)
            XCTAssertEqual(type.choices.map(\.name), EQBandType.allCases.map(\.rawValue), "choice values are the allCases order")
            XCTAssertEqual(type.choices.map(\.value), EQBandType.allCases.map(\.choiceValue))
        }
        XCTAssertEqual(EQBandType.allCases.map { EQBandType(choiceValue: $0.choiceValue) }, EQBandType.allCases)
        XCTAssertNil(EQBandType(choiceValue: 8))
    }

    func testSixteenBandsThroughTheEngineMatchTheAnalyticResponse() throws {
        let bands = sixteenBands()
        for frequency in [100.0, 997.0, 5000.0] {
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
            try host.install(TestGraph.single(units: [EQUnit(bands: bands, gainDB: 3)]), sampleRate: 96000)
            let input = TestSignal.sine(frames: 96000, frequency: frequency, sampleRate: 96000, amplitude: 0.25)
            let output = host.render([input], blockSize: 253)[0]
            let measured = TestSignal.rmsDB(output[48000...]) - TestSignal.rmsDB(input[48000...])
            let expected = EQResponse.magnitudeDB(bands: bands, sampleRate: 96000, frequency: frequency) + 3
            XCTAssertEqual(measured, expected, accuracy: 0.05, "\(frequency) Hz")
        }
    }

    func testABandGainChangesLiveWithoutAClick() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(TestGraph.single(units: [EQUnit(bands: [EQBand(type: .peak, frequency: 1000, gainDB: 0, q: 1)])]), sampleRate: 48000)
        let input = TestSignal.sine(frames: 9600, frequency: 1000, sampleRate: 48000, amplitude: 0.25)
        let output = try host.render([input], blockSize: 256) { cycle, _ in
            if cycle == 4 { try host.engine.set(.unitParameter(strip: 0, unit: 0, parameter: 2), to: 6) }   // band1_gain_db
        }[0]
        XCTAssertEqual(TestSignal.rmsDB(output[0..<1024]) - TestSignal.rmsDB(input[0..<1024]), 0, accuracy: 0.01)
        XCTAssertEqual(TestSignal.rmsDB(output[4800...]) - TestSignal.rmsDB(input[4800...]), 6, accuracy: 0.02, "+6 dB once the 20 ms glide is over")
        XCTAssertLessThan(TestSignal.largestStep(output), TestSignal.largestStep(input) * 2 * 1.1, "never more than the +6 dB copy's step")
    }

    func testStereoOutputGainAndDisabledBand() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 2)
        let unit = EQUnit(bands: [EQBand(type: .highShelf, frequency: 2000, gainDB: 6)])
        try host.install(TestGraph.single(stripChannels: 2, busChannels: 2, units: [unit]), sampleRate: 44100)
        let left = TestSignal.sine(frames: 8820, frequency: 15000, sampleRate: 44100, amplitude: 0.2)
        let right = TestSignal.sine(frames: 8820, frequency: 100, sampleRate: 44100, amplitude: 0.2)
        let output = try host.render([left, right], blockSize: 7) { cycle, _ in
            guard cycle == 0 else { return }
            try host.engine.set(.unitParameter(strip: 0, unit: 0, parameter: 0), to: -6)    // gain_db
            try host.engine.set(.unitParameter(strip: 0, unit: 0, parameter: 4), to: 0)     // band1_enabled
        }
        XCTAssertEqual(TestSignal.rmsDB(output[0][4410...]) - TestSignal.rmsDB(left[4410...]), -6, accuracy: 0.02, "shelf out, output −6 dB")
        XCTAssertEqual(TestSignal.rmsDB(output[1][4410...]) - TestSignal.rmsDB(right[4410...]), -6, accuracy: 0.02)
    }

    func testSetupRejectsBandsAboveTheRateAndTooManyBands() {
        let high = EQUnit(bands: [EQBand(type: .peak, frequency: 1000), EQBand(type: .highShelf, frequency: 22000, gainDB: 3)])
        XCTAssertThrowsError(try high.prepare(channels: 1, sampleRate: 44100, maxFrames: 256)) { error in
            XCTAssertTrue("\(error)".contains("band 2 is at 22000 Hz, above 0.49 × the sample rate (21609 Hz at 44100 Hz)"), "\(error)")
        }
        XCTAssertNoThrow(try EQUnit(bands: [EQBand(type: .highShelf, frequency: 22000)]).prepare(channels: 2, sampleRate: 48000, maxFrames: 256))
        let crowded = EQUnit(bands: Array(repeating: EQBand(type: .peak, frequency: 500), count: 33))
        XCTAssertThrowsError(try crowded.prepare(channels: 1, sampleRate: 48000, maxFrames: 256))
        XCTAssertThrowsError(try EQUnit(bands: []).prepare(channels: 3, sampleRate: 48000, maxFrames: 256))
    }

    func testResetAfterNaNInputGivesFiniteOutputAgain() throws {
        let bands = [EQBand(type: .peak, frequency: 300, gainDB: 9, q: 3), EQBand(type: .lowPass, frequency: 6000, slopeDBPerOctave: 24)]
        let unit = EQUnit(bands: bands)
        let slot = try unit.prepare(channels: 1, sampleRate: 48000, maxFrames: 512)
        let fresh = EQUnit(bands: bands)
        let freshSlot = try fresh.prepare(channels: 1, sampleRate: 48000, maxFrames: 512)
        var poisoned = TestSignal.noise(frames: 512)
        poisoned[17] = .nan
        _ = process(slot, poisoned)
        slot.functions.reset(slot.state)
        let input = TestSignal.noise(frames: 512, seed: 7)
        let output = process(slot, input)
        XCTAssertTrue(output.allSatisfy(\.isFinite))
        XCTAssertEqual(output, process(freshSlot, input), "after reset the unit behaves as new")
    }

    /// One block through a prepared mono slot.
    private func process(_ slot: UnitRenderSlot, _ input: [Float]) -> [Float] {
        var output = [Float](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                var inputs = [source.baseAddress!]
                var outputs = [target.baseAddress!]
                inputs.withUnsafeMutableBufferPointer { ins in
                    outputs.withUnsafeMutableBufferPointer { outs in
                        slot.functions.process(slot.state, UnsafePointer(ins.baseAddress!), UnsafePointer(outs.baseAddress!), Int32(input.count))
                    }
                }
            }
        }
        return output
    }
}
