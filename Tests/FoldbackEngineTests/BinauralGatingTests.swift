// Silence gating of sends into a binaural bus: gated (the sources rest, their partition clocks moved) vs not, bit for bit.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam
import FoldbackDSP
import FoldbackEngine
import XCTest

final class BinauralGatingTests: XCTestCase {
    /// Eight directions at ear level, 1 m, with 300-frame decaying noise responses whose onsets run from 5 frames
    /// (the ear reads the input undelayed: the direct part) to 166 (several partitions back).
    private static let set: HRIRSet = {
        var generator = SeededGenerator(seed: 41)
        let irLength = 500
        let directions = (0..<8).map { HRIRDirection(azimuthDeg: Float($0 * 45 - 180), elevationDeg: 0) }
        var irs = [Float](repeating: 0, count: directions.count * 2 * irLength)
        for response in 0..<(directions.count * 2) {
            let onset = 5 + 11 * response
            for frame in 0..<300 {
                irs[response * irLength + onset + frame] = Float.random(in: -1...1, using: &generator) * exp(-Float(frame) / 50)
            }
        }
        return HRIRSet(sampleRate: 48000, irLength: irLength, irs: irs, delays: [0, 0], directions: directions, measuredDistance: 1)
    }()

    /// A mono vocal at 30° and stereo keys at −100° (width 1) into a binaural in-ear bus, the vocal also into a plain
    /// stereo bus.
    private func chain(gating: Bool) -> GraphDescription {
        var vox = SendDescription(bus: 0, gainDB: -3)
        vox.position = BinauralPosition(azimuthDeg: 30)
        var keys = SendDescription(bus: 0, gainDB: -6, width: 1)
        keys.position = BinauralPosition(azimuthDeg: -100, distanceM: 2)
        var iem = BusDescription(name: "iem", channels: 2)
        iem.hrtf = Self.set
        var graph = GraphDescription(
            strips: [
                StripDescription(name: "vox", channels: 1, sends: [vox, SendDescription(bus: 1, pan: -0.2)]),
                StripDescription(name: "keys", channels: 2, sends: [keys]),
            ],
            buses: [iem, BusDescription(name: "main", channels: 2)])
        graph.isGatingEnabled = gating
        return graph
    }

    /// Bursts of noise with gaps of exact zeros whose lengths are no multiple of the partition (64 frames), so sound
    /// returns at every phase of the partition clock; the keys' bursts start later than the vocal's.
    private func bursts(count: Int) -> [[Float]] {
        var generator = SeededGenerator(seed: 12)
        var vox: [Float] = [], keys: [Float] = []
        for index in 0..<count {
            let burst = 1500 + 37 * index, gap = 9000 + 611 * index
            let noise = (0..<burst).map { _ in Float.random(in: -0.7...0.7, using: &generator) }
            vox += noise + [Float](repeating: 0, count: gap)
            let lag = 700 + 29 * index
            keys += [Float](repeating: 0, count: lag) + noise.map { $0 * 0.5 } + [Float](repeating: 0, count: gap - lag)
        }
        return [vox, keys, keys.map { $0 == 0 ? 0 : -$0 }]
    }

    private func render(gating: Bool, input: [[Float]], blockSize: Int, changes: (Int, Engine) throws -> Void) throws -> (output: [[Float]], silentStrips: [Int]) {
        fb_team_enable_ftz_daz()
        let host = OfflineEngine(maxFrames: 1024, inputs: 3, outputs: 4)
        let graph = try host.install(chain(gating: gating), sampleRate: 48000)
        let output = try host.render(input, blockSize: blockSize) { cycle, _ in try changes(cycle, host.engine) }
        return (output, graph.gatedAroundUnits.silentStrips)
    }

    /// With the strips silent between bursts, the vocal muted during a gap through its next burst and its send
    /// moved (its gains silent, then its position crossfading while it rests), gated and ungated renders are
    /// bit-identical at blocks 1, 7, 253 and 1024, and both are bit-identical to an ungated render that never mutes
    /// but has that burst cut out of the vocal's input: the sources rest with their partition clocks moved as
    /// processing zeros would (they used to stop them, keyed on the send's gains, so sound after a mute came out cut
    /// at other partition boundaries), so sound that returns is cut at the same partition boundaries.
    func testBinauralSendsRestThroughGapsBitIdenticallyGatedAndNot() throws {
        let input = bursts(count: 4)
        var cut = input
        for frame in 10500..<(10500 + 1537) { cut[0][frame] = 0 }   // the vocal's second burst, muted below
        for blockSize in [1, 7, 253, 1024] {
            let gap = 6000 / blockSize, later = 16000 / blockSize
            func changes(muting: Bool) -> (Int, Engine) throws -> Void {
                { cycle, engine in
                    switch cycle {
                    case gap where muting: try engine.set(.stripMute(strip: 0), to: 1)
                    case later: try engine.set(.sendPosition(strip: 0, send: 0, axis: .azimuth), to: -45)
                    case later + 1 where muting: try engine.set(.stripMute(strip: 0), to: 0)
                    default: break
                    }
                }
            }
            let gated = try render(gating: true, input: input, blockSize: blockSize, changes: changes(muting: true))
            let plain = try render(gating: false, input: input, blockSize: blockSize, changes: changes(muting: true))
            let reference = try render(gating: false, input: cut, blockSize: blockSize, changes: changes(muting: false))
            for channel in 0..<4 {
                for (other, name) in [(plain, "gating = false"), (reference, "never muted, burst cut")] {
                    let differing = zip(gated.output[channel], other.output[channel]).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
                    XCTAssertNil(differing, "output \(channel) differs from \(name) at frame \(differing?.offset ?? -1), block \(blockSize)")
                }
                XCTAssertGreaterThan(plain.output[channel].map(abs).max() ?? 0, 0.01, "output \(channel) carries the bursts, block \(blockSize)")
            }
            let chunks = (input[0].count + blockSize - 1) / blockSize
            XCTAssertGreaterThan(min(gated.silentStrips[0], gated.silentStrips[1]), chunks / 2, "the strips are silent in most chunks, block \(blockSize)")
            XCTAssertEqual(plain.silentStrips.reduce(0, +), 0, "gating = false skips nothing, block \(blockSize)")
        }
    }
}
