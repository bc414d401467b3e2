// Strip and bus gating: mute, solo-in-place combinations, disabled strips and bus mute, set up front or changed live.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest

final class StripGatingTests: XCTestCase {
    /// Three mono strips fed DC 1, 2 and 4 into one mono bus: the bus level says exactly which strips are heard.
    private func threeStrips(muted: Set<Int> = [], soloed: Set<Int> = [], disabled: Set<Int> = [], busMuted: Bool = false) -> GraphDescription {
        GraphDescription(
            strips: (0..<3).map { index in
                StripDescription(name: "s\(index)", channels: 1, sends: [SendDescription(bus: 0, isPreFader: index == 2)],
                                 isMuted: muted.contains(index), isSoloed: soloed.contains(index), isEnabled: !disabled.contains(index))
            },
            buses: [BusDescription(name: "main", channels: 1, isMuted: busMuted)])
    }

    private let levels: [[Float]] = [TestSignal.dc(frames: 2000, value: 1), TestSignal.dc(frames: 2000, value: 2), TestSignal.dc(frames: 2000, value: 4)]

    private func heard(_ description: GraphDescription, sampleRate: Double = 48000, file: StaticString = #filePath, line: UInt = #line) throws -> Set<Float> {
        let host = OfflineEngine(maxFrames: 1024, inputs: 3, outputs: 1)
        try host.install(description, sampleRate: sampleRate)
        let output = host.render(levels, blockSize: 253)
        assertFullyWritten(output, file: file, line: line)
        return Set(output[0])
    }

    func testSoloInPlaceCombinationsFromTheDescription() throws {
        let cases: [(muted: Set<Int>, soloed: Set<Int>, level: Float, what: String)] = [
            ([], [], 7, "none soloed: all heard"),
            ([], [1], 2, "one soloed: only it"),
            ([], [2], 4, "one soloed (pre-fader send): only it"),
            ([], [0, 2], 5, "two soloed: both"),
            ([], [0, 1, 2], 7, "all soloed: all"),
            ([1], [1, 2], 4, "a soloed and muted strip is silent"),
            ([1], [1], 0, "the only soloed strip muted: silence"),
            ([0], [], 6, "mute without solo"),
        ]
        for sampleRate in [44100.0, 96000] {
            for (muted, soloed, level, what) in cases {
                XCTAssertEqual(try heard(threeStrips(muted: muted, soloed: soloed), sampleRate: sampleRate), [level], "\(what), \(sampleRate) Hz")
            }
        }
    }

    func testDisabledStripIsSilent() throws {
        XCTAssertEqual(try heard(threeStrips(disabled: [2])), [3])
        XCTAssertEqual(try heard(threeStrips(disabled: [0, 1, 2])), [0])
    }

    func testBusMuteSilencesTheBus() throws {
        XCTAssertEqual(try heard(threeStrips(busMuted: true)), [0])
    }

    /// Renders DC levels, applying `changes` at the start of the cycle at frame 506, and returns the bus after all ramps.
    private func levelAfter(_ changes: [(ParameterAddress, Float)], from description: GraphDescription, sampleRate: Double) throws -> (settled: Set<Float>, largestStep: Float) {
        let host = OfflineEngine(maxFrames: 1024, inputs: 3, outputs: 1)
        try host.install(description, sampleRate: sampleRate)
        let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
        let frames = 506 + ramp + 400
        let inputs = [Float(1), 2, 4].map { TestSignal.dc(frames: frames, value: $0) }
        let output = try host.render(inputs, blockSize: 253) { _, start in
            if start == 506 { for (address, value) in changes { try host.engine.set(address, to: value) } }
        }
        return (Set(output[0][(506 + ramp - 1)...]), TestSignal.largestStep(output[0]))
    }

    func testLiveSoloMuteAndEnableChangesRampToTheSameResult() throws {
        let cases: [(changes: [(ParameterAddress, Float)], level: Float, what: String)] = [
            ([(.stripSolo(strip: 1), 1)], 2, "solo one"),
            ([(.stripSolo(strip: 0), 1), (.stripSolo(strip: 2), 1)], 5, "solo two"),
            ([(.stripSolo(strip: 1), 1), (.stripMute(strip: 1), 1)], 0, "solo and mute the same strip"),
            ([(.stripEnabled(strip: 0), 0)], 6, "disable one"),
            ([(.stripMute(strip: 2), 1)], 3, "mute the pre-fader one"),
            ([(.busMute(bus: 0), 1)], 0, "mute the bus"),
        ]
        for sampleRate in [44100.0, 48000, 96000] {
            for (changes, level, what) in cases {
                let result = try levelAfter(changes, from: threeStrips(), sampleRate: sampleRate)
                XCTAssertEqual(result.settled, [level], "\(what), \(sampleRate) Hz")
                let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
                XCTAssertLessThanOrEqual(result.largestStep, TestSignal.clickFreeStep(delta: 7, frames: ramp), "\(what): the change ramps, no step")
            }
        }
    }

    func testUnsoloingAndUnmutingRestoreTheFullMix() throws {
        let result = try levelAfter([(.stripSolo(strip: 1), 0), (.stripMute(strip: 0), 0), (.stripEnabled(strip: 2), 1)],
                                    from: threeStrips(muted: [0], soloed: [1], disabled: [2]), sampleRate: 48000)
        XCTAssertEqual(result.settled, [7])
    }

    func testBusUnmuteRestoresAGainSetWhileMuted() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 3, outputs: 1)
        try host.install(threeStrips(busMuted: true), sampleRate: 48000)
        try host.engine.set(.busGain(bus: 0), to: -6.0206)
        var output = host.render(levels, blockSize: 253)
        XCTAssertTrue(output[0].allSatisfy { $0 == 0 }, "a gain change does not unmute")
        try host.engine.set(.busMute(bus: 0), to: 0)
        output = host.render(levels, blockSize: 253)
        XCTAssertEqual(output[0][959], 3.5, accuracy: 1e-5, "unmuted at the gain set while muted")
        XCTAssertEqual(output[0].last!, 3.5, accuracy: 1e-5)
    }
}
