// The partitioned (FFT) convolution of BinauralSource against a direct convolution of the set's own responses.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import Foundation
import XCTest

private typealias Measure = BinauralMeasurement

final class BinauralConvolutionTests: XCTestCase {
    /// Four directions around the head with onsets `firstOnset` … `firstOnset` + 161 frames (from 70, the input is read
    /// several partitions back; from 5, the first directions' ears read it undelayed, so their first partition runs
    /// partly as the direct dot product, and direction 1's two ears differ) and 300-frame decaying noise responses,
    /// measured at the reference distance (gain 1).
    private func syntheticSet(sampleRate: Double, firstOnset: Int = 70) -> HRIRSet {
        var generator = SeededGenerator(seed: 40)
        let irLength = 600
        let directions = [0, 90, 180, -90].map { HRIRDirection(azimuthDeg: Float($0), elevationDeg: 0) }
        var irs = [Float](repeating: 0, count: directions.count * 2 * irLength)
        for response in 0..<(directions.count * 2) {
            let onset = firstOnset + 23 * response
            for frame in 0..<300 {
                irs[response * irLength + onset + frame] = Float.random(in: -1...1, using: &generator) * exp(-Float(frame) / 60)
            }
        }
        return HRIRSet(sampleRate: sampleRate, irLength: irLength, irs: irs, delays: [0, 0], directions: directions, measuredDistance: 1)
    }

    /// `input` through direction `direction`'s filter for `ear` from its start (the direct FIR).
    private func direct(_ set: HRIRSet, direction: Int, ear: Int, input: [Float]) -> [Float] {
        let filter = set.renderedFilter(direction: direction, ear: ear)
        let response = filter.taps.map(Double.init), onset = filter.start
        return input.indices.map { frame in
            var sum = 0.0
            for tap in response.indices where frame - onset - tap >= 0 { sum += response[tap] * Double(input[frame - onset - tap]) }
            return Float(sum)
        }
    }

    /// Error energy relative to the reference's, dB.
    private func errorDB(_ output: [Float], _ reference: [Float]) -> Double {
        var error = 0.0, energy = 0.0
        for (a, b) in zip(output, reference) {
            error += Double(a - b) * Double(a - b)
            energy += Double(b) * Double(b)
        }
        return 10 * log10(error / energy + 1e-30)
    }

    /// At a measured direction the output is the set's response at its onset, within −100 dB, at blocks 1, 7, 253 and
    /// 1024 (bit-identical to each other) and at 44.1 and 48 kHz, for onsets that read the input partitions back and
    /// for ones that read it undelayed (the direct part).
    func testAMeasuredDirectionIsTheDirectConvolution() {
        var generator = SeededGenerator(seed: 7)
        let noise = (0..<3000).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
        for sampleRate in [44100.0, 48000.0] { for firstOnset in [70, 5] {
            let set = syntheticSet(sampleRate: sampleRate, firstOnset: firstOnset)
            for direction in 0..<4 {
                let references = (0..<2).map { direct(set, direction: direction, ear: $0, input: noise) }
                var first: (left: [Float], right: [Float])?
                for blockSize in [1, 7, 253, 1024] {
                    var source = BinauralSource(set: set, position: BinauralPosition(azimuthDeg: set.directions[direction].azimuthDeg))
                    let output = Measure.render(&source, input: noise, blockSize: blockSize)
                    source.deallocate()
                    let label = "onset \(firstOnset) direction \(direction) block \(blockSize)"
                    XCTAssertLessThan(errorDB(output.left, references[0]), -100, "\(label) left")
                    XCTAssertLessThan(errorDB(output.right, references[1]), -100, "\(label) right")
                    if let first {
                        XCTAssertEqual(output.left, first.left)
                        XCTAssertEqual(output.right, first.right)
                    }
                    first = first ?? output
                }
            }
        } }
    }

    /// A move at a frame inside a partition crossfades the two directions' direct convolutions over the crossfade,
    /// within −100 dB, with onsets that read the input partitions back and ones that read it undelayed.
    func testAMoveInsideAPartitionCrossfadesTheTwoDirectConvolutions() {
        var generator = SeededGenerator(seed: 9)
        let noise = (0..<4000).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
        let moveFrame = 1000 + 13
        for firstOnset in [70, 5] { for blockSize in [1, 7, 253, 1024] {
            let set = syntheticSet(sampleRate: 48000, firstOnset: firstOnset)
            var source = BinauralSource(set: set, position: BinauralPosition(azimuthDeg: 90))
            let fade = source.crossfadeFrames
            let output = Measure.render(&source, input: noise, blockSize: blockSize) { frame, source in
                if frame <= moveFrame && moveFrame < frame + blockSize { source.move(to: BinauralPosition(azimuthDeg: -90)) }
            }
            source.deallocate()
            // The move is taken at the start of the block that holds moveFrame.
            let taken = moveFrame / blockSize * blockSize
            for ear in 0..<2 {
                let from = direct(set, direction: 1, ear: ear, input: noise), to = direct(set, direction: 3, ear: ear, input: noise)
                let expected = noise.indices.map { frame -> Float in
                    let share = min(max(Float(frame - taken + 1) / Float(fade), 0), 1)
                    return from[frame] + share * (to[frame] - from[frame])
                }
                XCTAssertLessThan(errorDB(ear == 0 ? output.left : output.right, expected), -100, "onset \(firstOnset) block \(blockSize) ear \(ear)")
            }
        } }
    }
}
