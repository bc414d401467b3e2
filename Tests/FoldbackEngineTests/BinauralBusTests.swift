// A binaural bus in the engine: each send rendered at its own position through a synthetic HRTF set whose responses
// are single clicks, so delays and gains are exact; level, fader, stereo width, moves, block sizes, refusals.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam
import FoldbackDSP
import FoldbackEngine
import XCTest

final class BinauralBusTests: XCTestCase {
    /// Eight directions around the head at ear level, measured at 1 m. At azimuth a the right ear's response is a click
    /// of 1 + 0.5·sin a at frame round(10 − 5·sin a), the left ear's 1 − 0.5·sin a at round(10 + 5·sin a).
    static func clickSet(sampleRate: Double) -> HRIRSet {
        let length = 32
        var irs: [Float] = []
        var directions: [HRIRDirection] = []
        for step in 0..<8 {
            let azimuth = Float(step * 45 - 180)
            let side = sin(Double(azimuth) * .pi / 180)
            directions.append(HRIRDirection(azimuthDeg: azimuth, elevationDeg: 0))
            for ear in [-1.0, 1.0] {
                var ir = [Float](repeating: 0, count: length)
                ir[Int((10 - 5 * side * ear).rounded())] = Float(1 + 0.5 * side * ear)
                irs += ir
            }
        }
        return HRIRSet(sampleRate: sampleRate, irLength: length, irs: irs, delays: [0, 0], directions: directions, measuredDistance: 1)
    }

    private func graph(
        _ set: HRIRSet, channels: Int = 1, position: BinauralPosition, width: Float? = nil, sendDB: Float = 0, faderDB: Float = 0,
        isPreFader: Bool = false
    ) -> GraphDescription {
        var send = SendDescription(bus: 0, gainDB: sendDB, isPreFader: isPreFader, width: width)
        send.position = position
        var bus = BusDescription(name: "iem", channels: 2)
        bus.hrtf = set
        return GraphDescription(strips: [StripDescription(name: "vox", channels: channels, sends: [send], gainDB: faderDB)], buses: [bus])
    }

    private func click(frames: Int, at frame: Int = 0) -> [Float] {
        var signal = [Float](repeating: 0, count: frames)
        signal[frame] = 1
        return signal
    }

    /// At 90° a click lands at frame 5 in the right ear (× 1.5) and 15 in the left (× 0.5), × the send level;
    /// a post-fader send also × the fader, a pre-fader one not.
    func testASendLandsWithItsDirectionsDelaysAndGainsTimesItsLevel() throws {
        for (isPreFader, expectedDB) in [(true, Float(-6)), (false, -16)] {
            let set = Self.clickSet(sampleRate: 48000)
            let host = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 2)
            try host.install(graph(set, position: BinauralPosition(azimuthDeg: 90), sendDB: -6, faderDB: -10, isPreFader: isPreFader), sampleRate: 48000)
            let out = host.render([click(frames: 256, at: 100)], blockSize: 64)
            assertFullyWritten(out)
            let level = Decibels.linearGain(fromDecibels: expectedDB)
            var left = [Float](repeating: 0, count: 256), right = left
            left[115] = 0.5 * level
            right[105] = 1.5 * level
            assertSignalsEqual(out[0], left, tolerance: 1e-6, "pre-fader \(isPreFader)")
            assertSignalsEqual(out[1], right, tolerance: 1e-6, "pre-fader \(isPreFader)")
        }
    }

    /// A stereo strip at 0° with width 1.5 is two points at −45° and +45°: its left channel alone comes out as the −45°
    /// response (left ear louder and earlier), its right channel alone as the +45° one.
    func testAStereoStripIsTwoPointsWidthApart() throws {
        let set = Self.clickSet(sampleRate: 48000)
        let host = OfflineEngine(maxFrames: 256, inputs: 2, outputs: 2)
        try host.install(graph(set, channels: 2, position: BinauralPosition(azimuthDeg: 0), width: 1.5), sampleRate: 48000)
        let out = host.render([click(frames: 256, at: 10), click(frames: 256, at: 100)], blockSize: 256)
        let side = Float(0.5 * sin(Double.pi / 4))
        // At −45° the left ear's click is at round(10 + 5·sin(−45°)) = 6, × (1 + side); the right ear's at 14, × (1 − side).
        XCTAssertEqual(out[0][10 + 6], 1 + side, accuracy: 1e-6)
        XCTAssertEqual(out[1][10 + 14], 1 - side, accuracy: 1e-6)
        XCTAssertEqual(out[1][100 + 6], 1 + side, accuracy: 1e-6)
        XCTAssertEqual(out[0][100 + 14], 1 - side, accuracy: 1e-6)
        let energy = out.reduce(0) { $0 + $1.reduce(0) { $0 + $1 * $1 } }
        XCTAssertEqual(energy, 2 * ((1 + side) * (1 + side) + (1 - side) * (1 - side)), accuracy: 1e-5, "nothing else")
    }

    /// Moving the send from 90° to −90° through the parameter: 5 ms later (the crossfade) a click comes out mirrored.
    func testMovingASendTakesItToTheNewDirection() throws {
        let set = Self.clickSet(sampleRate: 48000)
        let host = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 2)
        try host.install(graph(set, position: BinauralPosition(azimuthDeg: 90)), sampleRate: 48000)
        let out = try host.render([click(frames: 1024, at: 600)], blockSize: 128) { cycle, _ in
            if cycle == 1 { try host.engine.set(.sendPosition(strip: 0, send: 0, axis: .azimuth), to: -90) }
        }
        XCTAssertEqual(out[0][605], 1.5, accuracy: 1e-6)
        XCTAssertEqual(out[1][615], 0.5, accuracy: 1e-6)
        XCTAssertThrowsError(try host.engine.set(.sendPosition(strip: 0, send: 0, axis: .elevation), to: -60))
    }

    /// Noise through a send moving at the first frame, at every block size: bit-identical output.
    func testBlockSizesGiveIdenticalOutput() throws {
        let set = Self.clickSet(sampleRate: 44100)
        var outputs: [[[Float]]] = []
        for blockSize in [1, 7, 253, 1024] {
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
            try host.install(graph(set, position: BinauralPosition(azimuthDeg: -30, distanceM: 2)), sampleRate: 44100)
            outputs.append(try host.render([TestSignal.noise(frames: 3000)], blockSize: blockSize) { cycle, _ in
                if cycle == 0 { try host.engine.set(.sendPosition(strip: 0, send: 0, axis: .azimuth), to: 100) }
            })
        }
        for output in outputs.dropFirst() { XCTAssertEqual(output, outputs[0]) }
        XCTAssertGreaterThan(outputs[0][1].map(abs).max()!, 0.1)
    }

    /// Three strips (one stereo) into two binaural buses and a plain one, moving, rendered on 1, 2 and 3 threads:
    /// bit-identical (each bus's sends run in strip order on one lane; each send has its own buffers).
    func testParallelRenderIsBitIdentical() throws {
        let set = Self.clickSet(sampleRate: 48000)
        func sends(_ azimuth: Float) -> [SendDescription] {
            (0..<3).map { bus in
                var send = SendDescription(bus: bus, gainDB: -Float(bus * 3), isPreFader: bus == 1)
                send.position = BinauralPosition(azimuthDeg: azimuth + Float(bus * 40), distanceM: 1 + Float(bus))
                return send
            }
        }
        var buses = [BusDescription(name: "iem1", channels: 2), BusDescription(name: "iem2", channels: 2), BusDescription(name: "wedge", channels: 2)]
        buses[0].hrtf = set
        buses[1].hrtf = set
        let strips = [
            StripDescription(name: "a", channels: 1, sends: sends(-60)), StripDescription(name: "b", channels: 2, sends: sends(30), gainDB: -4),
            StripDescription(name: "c", channels: 1, sends: sends(150)),
        ]
        fb_team_enable_ftz_daz()
        var outputs: [[[Float]]] = []
        for threads in [1, 2, 3] {
            let host = OfflineEngine(maxFrames: 256, inputs: 4, outputs: 6, renderThreads: threads)
            defer { host.engine.stopLocalWorkers() }
            try host.install(GraphDescription(strips: strips, buses: buses), sampleRate: 48000, graphMaxFrames: 256)
            let input = (0..<4).map { TestSignal.noise(frames: 4000, seed: UInt32($0 + 1), amplitude: 0.3) }
            outputs.append(try host.render(input, blockSize: 253) { cycle, _ in
                if cycle == 3 { try host.engine.set(.sendPosition(strip: 1, send: 0, axis: .azimuth), to: -100) }
                if cycle == 5 { try host.engine.set(.sendWidth(strip: 1, send: 1), to: 0.2) }
            })
        }
        assertFullyWritten(outputs[0])
        XCTAssertGreaterThan(outputs[0][2].map(abs).max()!, 0.01, "the second binaural bus carries signal")
        XCTAssertEqual(outputs[1], outputs[0], "2 threads")
        XCTAssertEqual(outputs[2], outputs[0], "3 threads")
    }

    func testABinauralBusIsStereoAtTheEnginesRate() {
        let set = Self.clickSet(sampleRate: 48000)
        var mono = graph(set, position: BinauralPosition())
        mono.buses[0].channels = 1
        XCTAssertThrowsError(try EngineGraph(mono, sampleRate: 48000, maxFrames: 256)) { error in
            XCTAssertEqual("\(error)", "binaural bus 'iem': a binaural bus is stereo, this one has 1 channel(s)")
        }
        XCTAssertThrowsError(try EngineGraph(graph(set, position: BinauralPosition()), sampleRate: 44100, maxFrames: 256)) { error in
            XCTAssertEqual("\(error)", "binaural bus 'iem': its HRTF set is at 48000.0 Hz, the engine runs at 44100.0 Hz")
        }
    }
}
