// CompressorUnit in the engine: preset-keyed parameters, reported latency, gain reduction in the meters, live parameter changes.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class CompressorUnitTests: XCTestCase {
    func testParametersAreKeyedAsPresetsAndLookaheadSetsTheLatency() throws {
        let unit = CompressorUnit(values: ["lookahead_ms": 5, "threshold_db": -30, "detection": 1, "auto_makeup": 1])
        XCTAssertEqual(unit.typeName, "compressor")
        XCTAssertEqual(unit.parameters.map(\.key), [
            "threshold_db", "ratio", "knee_db", "attack_ms", "release_ms", "makeup_db", "auto_makeup", "detection",
            "stereo_link", "expander_threshold_db", "expander_ratio",
        ])
        XCTAssertEqual(unit.settings.thresholdDB, -30)
        XCTAssertEqual(unit.settings.detection, .rms)
        XCTAssertTrue(unit.settings.isAutoMakeupEnabled)
        XCTAssertEqual(unit.settings.ratio, CompressorSettings().ratio, "absent keys take their defaults")
        XCTAssertEqual(unit.meterReadings(), [], "nothing to publish before prepare")
        let slot = try unit.prepare(channels: 2, sampleRate: 48000, maxFrames: 512)
        XCTAssertEqual(slot.latencyFrames, 240, "5 ms at 48 kHz")
        XCTAssertEqual(slot.inputChannels, 2)
        XCTAssertEqual(slot.outputChannels, 2)
        XCTAssertThrowsError(try unit.prepare(channels: 2, sampleRate: 48000, maxFrames: 512), "a unit is prepared once")
    }

    /// 0 dBFS DC at −20 dB, 4:1, hard knee: the bus carries −15 dBFS (±0.01 dB) and the meters show 15 dB of
    /// compression (±0.01) and no expansion; setting the ratio to 1 live releases it to 0.
    func testGainReductionIsPublishedAndLiveChangesApply() throws {
        let unit = CompressorUnit(values: ["threshold_db": -20, "ratio": 4, "knee_db": 0, "release_ms": 20])
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(TestGraph.single(units: [unit]), sampleRate: 48000)
        let loud = [Float](repeating: 1, count: 24000)
        let output = host.render([loud], blockSize: 256)[0]
        XCTAssertEqual(Dynamics.dB(output.last!), -15, accuracy: 0.01)
        let units = host.engine.meters().units
        XCTAssertEqual(units.count, 1)
        XCTAssertEqual(units.first?.strip, "vox")
        XCTAssertEqual(units.first?.unit, "compressor")
        XCTAssertEqual(units.first?.readings.map(\.key), ["gain_reduction_db", "expansion_db"])
        XCTAssertEqual(units.first?.readings.first?.value ?? 0, 15, accuracy: 0.01)
        XCTAssertEqual(units.first?.readings.last?.value, 0, "no expansion above the expander threshold")

        try host.engine.set(.unitParameter(strip: 0, unit: 0, parameter: 1), to: 1)
        let released = host.render([loud], blockSize: 256)[0]
        XCTAssertEqual(released.last!, 1, "ratio 1: unity gain once released")
        XCTAssertEqual(host.engine.meters().units.first?.readings.first?.value, 0)
        XCTAssertThrowsError(try host.engine.set(.unitParameter(strip: 0, unit: 0, parameter: 1), to: 0.5), "ratio below 1")
    }

    /// A silent input through a gate (expander 20:1 at −50 dB) publishes its 80 dB as expansion, not compression.
    func testAGatedSilencePublishesExpansionNotCompression() throws {
        let unit = CompressorUnit(values: ["threshold_db": -20, "expander_threshold_db": -50, "expander_ratio": 20])
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(TestGraph.single(units: [unit]), sampleRate: 48000)
        host.renderSilence(frames: 96000, blockSize: 253)   // 2 s: 20 release time constants
        let readings = Dictionary(uniqueKeysWithValues: (host.engine.meters().units.first?.readings ?? []).map { ($0.key, $0.value) })
        XCTAssertEqual(readings["gain_reduction_db"], 0)
        XCTAssertEqual(readings["expansion_db"] ?? 0, CompressorKernel.expansionRangeDB, accuracy: 0.1)
    }
}

private enum Dynamics {
    static func dB(_ amplitude: Float) -> Float { 20 * log10(amplitude) }
}
