// BinauralSource moving: a sweep of azimuth during playback has no step above the signal's own; block sizes do not matter.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackHRTF
import Foundation
import XCTest

final class BinauralMotionTests: XCTestCase {
    private typealias Measure = BinauralMeasurement

    /// A 500 Hz sine swept from −170° to +170° in 2 s, a new position every 64 frames: the largest frame-to-frame step
    /// of either ear stays within 5 % of the largest the same sine has standing still at any of 35 positions on the way.
    func testAnAzimuthSweepHasNoStepAboveTheSignalsOwn() throws {
        for sampleRate in [44100.0, 48000] {
            let set = try SOFALoader.load(path: Measure.kemar, sampleRate: sampleRate)
            let frames = Int(2 * sampleRate)
            let sine = (0..<frames).map { Float(sin(2 * Double.pi * 500 * Double($0) / sampleRate)) * 0.5 }
            func largestStep(_ out: (left: [Float], right: [Float]), from start: Int) -> Float {
                var largest: Float = 0
                for signal in [out.left, out.right] {
                    for index in (start + 1)..<signal.count { largest = max(largest, abs(signal[index] - signal[index - 1])) }
                }
                return largest
            }
            var own: Float = 0
            for azimuth in stride(from: Float(-170), through: 170, by: 10) {
                var still = BinauralSource(set: set, position: BinauralPosition(azimuthDeg: azimuth))
                own = max(own, largestStep(Measure.render(&still, input: Array(sine.prefix(4096)), blockSize: 256), from: 1024))
                still.deallocate()
            }
            var moving = BinauralSource(set: set, position: BinauralPosition(azimuthDeg: -170))
            defer { moving.deallocate() }
            let swept = Measure.render(&moving, input: sine, blockSize: 64) { frame, source in
                source.move(to: BinauralPosition(azimuthDeg: -170 + 340 * Float(frame) / Float(frames)))
            }
            let step = largestStep(swept, from: 1024)
            XCTAssertLessThanOrEqual(step, own * 1.05, "\(sampleRate) Hz: sweep \(step), standing \(own)")
            XCTAssertGreaterThan(own, 0.01)
        }
    }

    /// Noise with a move at the start (a crossfade under way) and the source near and far: bit-identical at every block size.
    func testBlockSizesGiveIdenticalOutput() throws {
        let set = try SOFALoader.load(path: Measure.kemar, sampleRate: 48000)
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<4000).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
        var outputs: [(left: [Float], right: [Float])] = []
        for blockSize in [1, 7, 253, 1024] {
            var source = BinauralSource(set: set, position: BinauralPosition(azimuthDeg: -40, elevationDeg: 10))
            source.move(to: BinauralPosition(azimuthDeg: 123.4, elevationDeg: -12.5, distanceM: 2.7))
            outputs.append(Measure.render(&source, input: noise, blockSize: blockSize))
            source.deallocate()
        }
        for output in outputs.dropFirst() {
            XCTAssertEqual(output.left, outputs[0].left)
            XCTAssertEqual(output.right, outputs[0].right)
        }
        XCTAssertGreaterThan(outputs[0].left.map(abs).max()!, 0.01)
    }

    /// A move during a crossfade waits for it: the position reported is the one whose filters render, then the latest.
    func testAMoveDuringACrossfadeIsTakenWhenItEnds() throws {
        let set = try SOFALoader.load(path: Measure.kemar, sampleRate: 48000)
        var source = BinauralSource(set: set, position: BinauralPosition(azimuthDeg: 0))
        defer { source.deallocate() }
        let silence = [Float](repeating: 0, count: source.crossfadeFrames)
        source.move(to: BinauralPosition(azimuthDeg: 30))
        _ = Measure.render(&source, input: Array(silence.prefix(10)), blockSize: 10)
        source.move(to: BinauralPosition(azimuthDeg: -60))
        _ = Measure.render(&source, input: Array(silence.dropFirst(10)), blockSize: 64)
        XCTAssertEqual(source.position, BinauralPosition(azimuthDeg: 30), "the first crossfade has ended")
        XCTAssertTrue(source.isMoving)
        _ = Measure.render(&source, input: silence, blockSize: 64)
        XCTAssertEqual(source.position, BinauralPosition(azimuthDeg: -60))
        XCTAssertFalse(source.isMoving)
    }
}
