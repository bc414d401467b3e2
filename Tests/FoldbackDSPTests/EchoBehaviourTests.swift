// The `echo` unit's live behaviour: a tempo change mid-tail without a click (crossfade and glide), ducking under a gated voice, freeze, and the tail ringing out through its own bypass.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import Foundation
import XCTest

final class EchoBehaviourTests: XCTestCase {
    /// A 1 kHz sine (0.5, whole cycles, so it starts and stops at zero) for 0.5 s into a 1/4 echo at
    /// 120 BPM (500 ms), 60 % feedback, wet only; 300 ms into the first repeat the tempo drops to 100 BPM
    /// (600 ms). The largest sample step from the change to the end stays within 1.05× the repeat's own
    /// (0.5 · 2π · 1000 / 48000 = 0.065) with the crossfade, within 1.05 × 1.25× (the glide's ±25 % pitch)
    /// with the glide, at block sizes 1, 253 and 1024; and the new time is in force afterwards.
    func testATempoChangeMidTailMovesWithoutAClick() throws {
        let sampleRate = 48000.0
        let input = EQMeasurement.sine(frequency: 1000, sampleRate: sampleRate, frames: 24000) + [Float](repeating: 0, count: 96000)
        for change in EchoTimeChange.allCases {
            for blockSize in [1, 253, 1024] {
                var settings = EchoMeasurement.bare(time: 10, feedback: 60)
                settings.sync = .quarter
                settings.timeChange = change
                let driver = try EchoMeasurement.driver(settings, sampleRate: sampleRate)
                driver.set(Int(EchoUnit.tempoParameter), 120)
                var changed = false
                let output = driver.render([input], blockSize: blockSize) { start in
                    if !changed && start >= 38400 {
                        driver.set(Int(EchoUnit.tempoParameter), 100)
                        changed = true
                    }
                }[0]
                let own = EchoMeasurement.largestStep(output, in: 24000..<38400)
                XCTAssertEqual(own, 0.5 * Float(sin(2 * Double.pi / 48)), accuracy: 0.001, "the repeat's own step")
                let limit = own * 1.05 * (change == .glide ? 1 + Float(EchoParameters.glideRate) : 1)
                let after = EchoMeasurement.largestStep(output, in: 38400..<output.count)
                XCTAssertLessThanOrEqual(after, limit, "\(change.name), block \(blockSize)")
                print("echo tempo change (\(change.name), block \(blockSize)): largest step \(after) against the signal's own \(own)")
            }
        }
    }

    /// The new time after a change is exact: an impulse sent once the head has settled repeats 28,800
    /// frames later (600 ms at 48 kHz), after a glide as after a crossfade.
    func testTheTimeIsExactAgainOnceAChangeHasSettled() throws {
        for change in EchoTimeChange.allCases {
            var settings = EchoMeasurement.bare(time: 500, feedback: 0)
            settings.timeChange = change
            let driver = try EchoMeasurement.driver(settings, sampleRate: 48000)
            driver.set(EchoMeasurement.index("time_ms"), 600)
            _ = driver.render([[Float](repeating: 0, count: 48000)], blockSize: 512)
            let output = driver.render([EchoMeasurement.impulse(30000)], blockSize: 512)[0]
            XCTAssertEqual(output.indices.filter { abs(output[$0]) > 1e-6 }, [28800], change.name)
        }
    }

    /// Voice bursts (noise, peak 0.25) 400 ms on, 600 ms off, into a 250 ms echo at 50 %: with
    /// `ducking_db = 12` the echo under the voice (100 ms into a burst to its end) is 12 ± 1 dB below the
    /// same echo unducked, and in the gaps (400 ms after a burst to the next) within 1 dB of it.
    func testTheEchoDucksUnderTheVoiceAndSwellsInTheGaps() throws {
        let sampleRate = 48000.0
        var input: [Float] = []
        for burst in 0..<4 {
            input += EQMeasurement.noise(frames: 19200, seed: UInt64(burst + 1), amplitude: 0.25)
            input += [Float](repeating: 0, count: 28800)
        }
        var plain = EchoMeasurement.bare(time: 250, feedback: 50)
        let open = try EchoMeasurement.driver(plain, sampleRate: sampleRate).render([input], blockSize: 256)[0]
        plain.ducking = 12
        let ducked = try EchoMeasurement.driver(plain, sampleRate: sampleRate).render([input], blockSize: 256)[0]
        for burst in 1..<4 {
            let start = burst * 48000
            let under = (start + 4800)..<(start + 19200), gap = (start + 19200 + 19200)..<(start + 48000)
            let duck = EQMeasurement.rmsDB(ducked[under]) - EQMeasurement.rmsDB(open[under])
            let swell = EQMeasurement.rmsDB(ducked[gap]) - EQMeasurement.rmsDB(open[gap])
            XCTAssertEqual(duck, -12, accuracy: 1, "under burst \(burst)")
            XCTAssertEqual(swell, 0, accuracy: 1, "in the gap after burst \(burst)")
            print("echo ducking 12 dB: under the voice \(String(format: "%.2f", duck)) dB, in the gap \(String(format: "%.2f", swell)) dB")
        }
    }

    /// Frozen after a burst (and its 20 ms ramp), the loop holds: each later 100 ms period carries the same energy (±0.01 dB)
    /// at 35 % feedback, and noise fed in while frozen does not reach the output.
    func testFreezeHoldsTheLoopAndTakesNoInput() throws {
        let sampleRate = 48000.0
        var settings = EchoMeasurement.bare(time: 100, feedback: 35)
        settings.lowCut = 200
        settings.highCut = 5000
        let burst = EQMeasurement.noise(frames: 4800, seed: 3)
        let silence = [Float](repeating: 0, count: 48000)
        let noise = EQMeasurement.noise(frames: 48000, seed: 4)
        var outputs: [[Float]] = []
        for later in [silence, noise] {
            let driver = try EchoMeasurement.driver(settings, sampleRate: sampleRate)
            _ = driver.render([burst], blockSize: 256)
            driver.set(EchoMeasurement.index("freeze"), 1)
            _ = driver.render([[Float](repeating: 0, count: 960)], blockSize: 256)   // the 20 ms ramp into the hold
            outputs.append(driver.render([later], blockSize: 256)[0])
        }
        let periods = (2..<10).map { EQMeasurement.rmsDB(outputs[0][($0 * 4800)..<(($0 + 1) * 4800)]) }
        XCTAssertLessThan(periods.max()! - periods.min()!, 0.01, "\(periods)")
        XCTAssertEqual(outputs[0], outputs[1], "what arrives while frozen is not heard")
    }

    /// The unit's own bypass: an impulse's repeats go on ringing after it (0.5ⁿ⁻¹ at n·100 ms), the dry
    /// path returns to unity, and an impulse arriving while bypassed is heard dry and never repeated.
    func testBypassLetsTheTailRingOut() throws {
        var settings = EchoMeasurement.bare(time: 100, feedback: 50)
        settings.mix = 0.5
        let driver = try EchoMeasurement.driver(settings, sampleRate: 48000)
        var input = EchoMeasurement.impulse(48000)
        input[12000] = 1
        let output = driver.render([input], blockSize: 128) { start in
            if start == 6400 { driver.set(Int(EchoUnit.enabledParameter), 0) }
        }[0]
        let wet = Float(sin(Double.pi / 4))
        XCTAssertEqual(output[0], Float(cos(Double.pi / 4)), accuracy: 1e-6)
        for repeatIndex in 1...8 {
            XCTAssertEqual(output[repeatIndex * 4800], wet * Float(pow(0.5, Double(repeatIndex - 1))), accuracy: 1e-6, "repeat \(repeatIndex)")
        }
        XCTAssertEqual(output[12000], 1, accuracy: 1e-6, "dry at unity")
        XCTAssertEqual(output[16800], 0, accuracy: 1e-6, "no repeat of what arrived while bypassed")
    }
}
