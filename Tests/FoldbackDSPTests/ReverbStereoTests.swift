// The true-stereo reverb: a source on one side rings on that side, a centred one stays centred, and the RT60 and exact-zero tails hold as in mono.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackDSP
import XCTest

final class ReverbStereoTests: XCTestCase {
    private typealias Measure = ReverbMeasurement

    /// The wet response (mix 1, width 1, no predelay) of a stereo kernel to `left` and `right`.
    private func stereoResponse(left: [Float], right: [Float], sampleRate: Double = 48000, decay: Float = 2, damping: Float = 0.5)
        -> (left: [Float], right: [Float]) {
        let parameters = ReverbParameters(decay: decay, predelay: 0, damping: damping, mix: 1, width: 1)
        var kernel = ReverbKernel(parameters: parameters, sampleRate: sampleRate, isStereo: true)
        return Measure.render(&kernel, left: left, right: right, blockSize: 253)
    }

    private func ratioDB(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
        10 * log10(Measure.energy(Array(a)) / Measure.energy(Array(b)))
    }

    func testALeftSourceGivesALeftWeightedTail() {
        for sampleRate in [44100.0, 48000.0, 96000.0] {
            let frames = Int(3 * sampleRate)
            let silence = [Float](repeating: 0, count: frames)
            let fromLeft = stereoResponse(left: Measure.impulse(frames: frames), right: silence, sampleRate: sampleRate)
            let whole = ratioDB(fromLeft.left[...], fromLeft.right[...])
            let early = Int(0.1 * sampleRate), middle = Int(0.5 * sampleRate)
            let first = ratioDB(fromLeft.left[..<early], fromLeft.right[..<early])
            let next = ratioDB(fromLeft.left[early..<middle], fromLeft.right[early..<middle])
            let late = ratioDB(fromLeft.left[middle...], fromLeft.right[middle...])
            print("stereo reverb, left-only impulse at \(Int(sampleRate)) Hz: L/R energy \(String(format: "%.1f", whole)) dB "
                  + "(0-100 ms \(String(format: "%.1f", first)) dB, 0.1-0.5 s \(String(format: "%.1f", next)) dB, after 0.5 s \(String(format: "%.1f", late)) dB)")
            XCTAssertGreaterThan(whole, 3, "\(sampleRate) Hz: the whole tail is left-weighted")
            XCTAssertGreaterThan(first, 6, "\(sampleRate) Hz: the first 100 ms are clearly on the left")
            XCTAssertGreaterThan(first, late, "\(sampleRate) Hz: the image widens towards the centre as the tail decays")
            XCTAssertGreaterThan(late, -1, "\(sampleRate) Hz: and never swaps sides")

            let fromRight = stereoResponse(left: silence, right: Measure.impulse(frames: frames), sampleRate: sampleRate)
            XCTAssertEqual(ratioDB(fromRight.right[...], fromRight.left[...]), whole, accuracy: 1.5, "\(sampleRate) Hz: a right source mirrors it")
        }
    }

    func testACentredSourceStaysCentredAndMonoIsUnchanged() {
        let frames = 96000
        let impulse = Measure.impulse(frames: frames)
        let centred = stereoResponse(left: impulse, right: impulse)
        XCTAssertEqual(ratioDB(centred.left[...], centred.right[...]), 0, accuracy: 1, "L = R input: balanced within 1 dB")
        XCTAssertLessThan(abs(Measure.correlation(centred.left, centred.right)), 0.2, "and still decorrelated")
        let stereoEnergy = Measure.energy(centred.left) + Measure.energy(centred.right)
        var mono = ReverbKernel(parameters: ReverbParameters(decay: 2, predelay: 0, mix: 1, width: 1), sampleRate: 48000)
        let monoOut = Measure.render(&mono, left: impulse, blockSize: 253)
        let monoEnergy = Measure.energy(monoOut.left) + Measure.energy(monoOut.right)
        XCTAssertEqual(10 * log10(stereoEnergy / monoEnergy), 0, accuracy: 1, "a centred source is as loud as in the mono tank")
    }

    func testStereoRT60MatchesTheDecay() {
        for decay: Float in [0.5, 1.5, 4] {
            let frames = Int((Double(decay) + 0.15) * 48000)
            let response = stereoResponse(left: Measure.impulse(frames: frames), right: [Float](repeating: 0, count: frames), decay: decay, damping: 0)
            let measured = Measure.reverberationTime([response.left, response.right], sampleRate: 48000)
            XCTAssertEqual(measured, Double(decay), accuracy: 0.03 * Double(decay), "decay \(decay) s (3 %, as in mono)")
        }
    }

    func testStereoTailEndsInExactZerosWithoutSubnormals() {
        let sampleRate = 48000.0, decay: Float = 0.5
        var kernel = ReverbKernel(parameters: ReverbParameters(decay: decay, mix: 1), sampleRate: sampleRate, isStereo: true)
        let frames = Int(sampleRate * (Double(decay) * 3.4 + 1.5))
        let output = Measure.render(&kernel, left: [Float](repeating: 0, count: frames), right: Measure.impulse(frames: frames), blockSize: 256)
        for channel in [output.left, output.right] {
            let last = channel.lastIndex { $0 != 0 }!
            XCTAssertLessThan(Double(last) / sampleRate, Double(decay) * 3.4 + 1, "exact 0 from here on")
            XCTAssertFalse(channel.contains { $0 != 0 && $0.magnitude < Float.leastNormalMagnitude }, "no subnormal output")
        }
        XCTAssertEqual(kernel.stateSubnormalCount(), 0)
    }
}
