// The notch bank: measured cut at and around a notch, click-free moves, identical results at every block size. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class NotchBankTests: XCTestCase {
    /// Runs a sine of `frequency` through `bank` in blocks of `blockSize` and returns the output.
    private func run(_ bank: inout NotchBank, frequency: Double, sampleRate: Double, frames: Int, blockSize: Int, start: Int = 0) -> [Float] {
        var output = [Float](repeating: 0, count: frames)
        var input = [Float](repeating: 0, count: blockSize)
        var block = [Float](repeating: 0, count: blockSize)
        var done = 0
        while done < frames {
            let count = min(blockSize, frames - done)
            for index in 0..<count { input[index] = Float(sin(2 * Double.pi * frequency * Double(start + done + index) / sampleRate)) }
            input.withUnsafeBufferPointer { i in
                block.withUnsafeMutableBufferPointer { o in
                    var ins = [i.baseAddress!]
                    var outs = [o.baseAddress!]
                    bank.process(inputs: &ins, outputs: &outs, frames: count)
                }
            }
            for index in 0..<count { output[done + index] = block[index] }
            done += count
        }
        return output
    }

    private func rmsDB(_ samples: ArraySlice<Float>) -> Double {
        10 * log10(samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count) * 2)
    }

    func testCutAtAndAroundTheNotch() {
        for sampleRate in [44_100.0, 48_000, 96_000] {
            for blockSize in [1, 7, 253, 1024] {
                for (frequency, expected, tolerance) in [(2500.0, -12.0, 0.1), (2500 * pow(2, 1.0 / 3), -0.6, 0.5), (1250, -0.1, 0.1)] {
                    var bank = NotchBank(channels: 1, sampleRate: sampleRate)
                    bank.setNotch(0, frequency: 2500, depthDB: -12, q: 16, depthRateDBPerSecond: 600)
                    let out = run(&bank, frequency: frequency, sampleRate: sampleRate, frames: Int(0.5 * sampleRate), blockSize: blockSize)
                    let measured = rmsDB(out[Int(0.3 * sampleRate)...])
                    XCTAssertEqual(measured, expected, accuracy: tolerance, "\(frequency) Hz at \(sampleRate) Hz, block \(blockSize)")
                }
            }
        }
    }

    /// A notch placed on a playing tone deepens in about 20 ms with no step: the largest sample-to-sample change
    /// stays within 1 % of the tone's own largest change; releasing it brings the level back to 0 dB.
    func testPlacingAndReleasingIsClickFree() {
        let sampleRate = 48_000.0
        var bank = NotchBank(channels: 1, sampleRate: sampleRate)
        let frequency = 1000.0
        let before = run(&bank, frequency: frequency, sampleRate: sampleRate, frames: 4800, blockSize: 64)
        bank.setNotch(3, frequency: frequency, depthDB: -12, q: 16, depthRateDBPerSecond: 600)
        let during = run(&bank, frequency: frequency, sampleRate: sampleRate, frames: 9600, blockSize: 64, start: 4800)
        XCTAssertEqual(rmsDB(during[4800...]), -12, accuracy: 0.2)
        bank.setNotch(3, frequency: frequency, depthDB: 0, q: 16, depthRateDBPerSecond: 60)
        let after = run(&bank, frequency: frequency, sampleRate: sampleRate, frames: 24000, blockSize: 64, start: 14400)
        XCTAssertEqual(rmsDB(after[19200...]), 0, accuracy: 0.05)
        XCTAssertEqual(bank.depth(3), 0)
        let all = before + during + after
        let toneStep = 2 * sin(Double.pi * frequency / sampleRate)
        let largest = zip(all.dropFirst(), all).map { Double(abs($0 - $1)) }.max()!
        XCTAssertLessThan(largest, toneStep * 1.01)
    }
}
