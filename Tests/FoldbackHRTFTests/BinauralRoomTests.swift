// BinauralRoom: its early reflections' delays (frames) and levels per ear, its tail's level, block-size independence, rest.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackHRTF
import Foundation
import XCTest

final class BinauralRoomTests: XCTestCase {
    /// Each reflection per ear from the design: the near ear at round(delay·rate), the far ear later by the Woodworth time
    /// difference (0.0875 m / 343 m/s · (θ + sin θ), θ the lateral angle) and 6·sin θ dB quieter. Left, right.
    private func expected(sampleRate: Double) -> [(delays: (Int, Int), gains: (Float, Float))] {
        BinauralRoom.reflections.map { reflection in
            let lateral = asin(abs(sin(reflection.azimuthDeg * .pi / 180)))
            let near = Int((reflection.delayMs / 1000 * sampleRate).rounded())
            let far = Int(((reflection.delayMs / 1000 + 0.0875 / 343 * (lateral + sin(lateral))) * sampleRate).rounded())
            let nearGain = Float(pow(10, reflection.levelDB / 20)), farGain = Float(pow(10, (reflection.levelDB - 6 * sin(lateral)) / 20))
            return reflection.azimuthDeg > 0 ? ((far, near), (farGain, nearGain)) : ((near, far), (nearGain, farGain))
        }
    }

    /// `left` and `right` through a room at `levelDB` in blocks of `blockSize`.
    private func render(_ left: [Float], _ right: [Float], sampleRate: Double, levelDB: Float = 0, blockSize: Int) -> (left: [Float], right: [Float]) {
        var room = BinauralRoom(sampleRate: sampleRate, levelDB: levelDB)
        defer { room.deallocate() }
        var outLeft = left, outRight = right
        var frame = 0
        while frame < left.count {
            let count = min(blockSize, left.count - frame)
            outLeft.withUnsafeMutableBufferPointer { l in
                outRight.withUnsafeMutableBufferPointer { r in room.process(left: l.baseAddress! + frame, right: r.baseAddress! + frame, frames: count) }
            }
            frame += count
        }
        return (outLeft, outRight)
    }

    /// A click in both ears: the direct click stays, each reflection lands at its designed frame per ear with its level
    /// (±1e-5), nothing else arrives before the tail (16 ms); the tail then carries −22 … −17 dB of the reflections' energy (measured −19.7 dB),
    /// at 44.1 and 48 kHz, bit-identical at blocks 1, 7, 253 and 1024.
    func testReflectionsLandAtTheirDelaysWithTheirLevels() {
        for sampleRate in [44100.0, 48000] {
            let frames = Int(sampleRate * 0.5)
            var click = [Float](repeating: 0, count: frames)
            click[0] = 1
            var first: (left: [Float], right: [Float])?
            for blockSize in [1, 7, 253, 1024] {
                let out = render(click, click, sampleRate: sampleRate, blockSize: blockSize)
                if let first {
                    XCTAssertEqual(out.left, first.left, "\(sampleRate) Hz, block \(blockSize)")
                    XCTAssertEqual(out.right, first.right, "\(sampleRate) Hz, block \(blockSize)")
                    continue
                }
                first = out
                var left = [Float](repeating: 0, count: frames), right = left
                left[0] = 1
                right[0] = 1
                for reflection in expected(sampleRate: sampleRate) {
                    left[reflection.delays.0] += reflection.gains.0
                    right[reflection.delays.1] += reflection.gains.1
                }
                let tailStart = Int(0.016 * sampleRate)
                for frame in 0..<tailStart {
                    XCTAssertEqual(out.left[frame], left[frame], accuracy: 1e-5, "\(sampleRate) Hz, left, frame \(frame)")
                    XCTAssertEqual(out.right[frame], right[frame], accuracy: 1e-5, "\(sampleRate) Hz, right, frame \(frame)")
                }
                let energy = { (x: ArraySlice<Float>) in x.reduce(0.0) { $0 + Double($1 * $1) } }
                let early = energy(left[1..<tailStart]) + energy(right[1..<tailStart])
                let tail = energy(out.left[tailStart...]) + energy(out.right[tailStart...])
                let ratio = 10 * log10(tail / early)
                XCTAssertGreaterThan(ratio, -22, "\(sampleRate) Hz")
                XCTAssertLessThan(ratio, -17, "\(sampleRate) Hz")
                print("BinauralRoomTests: \(sampleRate) Hz: tail energy \(ratio) dB relative to the early reflections'")
            }
        }
    }

    /// The level scales the room: at −10 dB every reflection is 10 dB lower (±0.01 dB).
    func testTheLevelScalesTheRoom() {
        let sampleRate = 48000.0
        var click = [Float](repeating: 0, count: 1024)
        click[0] = 1
        let out = render(click, click, sampleRate: sampleRate, levelDB: -10, blockSize: 64)
        for reflection in expected(sampleRate: sampleRate) {
            XCTAssertEqual(20 * log10(Double(out.left[reflection.delays.0] / reflection.gains.0)), -10, accuracy: 0.01)
        }
    }

    /// Silence in: once its line and tail have played out (3 s), the room adds exact zeros.
    func testARoomAtRestAddsNothing() {
        let sampleRate = 48000.0
        var signal = [Float](repeating: 0, count: Int(sampleRate * 4))
        for frame in 0..<4800 { signal[frame] = sin(Float(frame) * 0.05) }
        let out = render(signal, signal, sampleRate: sampleRate, blockSize: 256)
        XCTAssertTrue(out.left[Int(sampleRate * 3)...].allSatisfy { $0 == 0 })
        XCTAssertTrue(out.right[Int(sampleRate * 3)...].allSatisfy { $0 == 0 })
    }

    /// A KEMAR click at 90° with the room at 0 dB: the interaural time difference (cross-correlation within ±1 ms) stays
    /// within 20 µs of the set's, at 44.1 and 48 kHz.
    func testTheDirectSoundKeepsItsITD() throws {
        for sampleRate in [44100.0, 48000] {
            let data = try SOFALoader.read(path: BinauralMeasurement.kemar, sampleRate: sampleRate)
            let index = data.directions.firstIndex { abs($0.azimuthDeg - 90) < 0.01 && abs($0.elevationDeg) < 0.01 }!
            let setITD = BinauralMeasurement.itd(left: data.response(direction: index, ear: 0), right: data.response(direction: index, ear: 1), sampleRate: sampleRate)
            let set = try SOFALoader.load(path: BinauralMeasurement.kemar, sampleRate: sampleRate)
            var source = BinauralSource(set: set, position: BinauralPosition(azimuthDeg: 90, distanceM: set.measuredDistance))
            defer { source.deallocate() }
            let direct = BinauralMeasurement.click(through: &source, frames: 4096)
            let out = render(direct.left, direct.right, sampleRate: sampleRate, blockSize: 253)
            XCTAssertNotEqual(out.left, direct.left, "the room adds")
            let itd = BinauralMeasurement.itd(left: out.left[...], right: out.right[...], sampleRate: sampleRate)
            XCTAssertEqual(itd, setITD, accuracy: 20e-6, "\(sampleRate) Hz")
        }
    }
}
