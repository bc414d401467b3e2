// Tests of a stretched file source on the live path (disk thread, ring, engine): every frame heard, loops joined without a gap or a click, a tempo change heard within 100 ms. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

extension FilePlayerStreamTests {
    func testAStretchedSourcePlaysEveryFrameOfItsFileThroughTheDiskThread() throws {
        let seconds = StretchedSourceRenderTests.seconds
        for signal in EnvelopeTestSignal.allCases {
            let source = signal.samples(rate: 48_000, seconds: seconds)
            let url = try writeFile("\(signal).wav", rate: 48_000, channels: [source])
            for setting in StretchedSourceRenderTests.settings {
                let player = try FilePlayerStream(url: url, channels: 1, loops: false, gainDB: 0, timePitch: setting)
                defer { player.close() }
                let output = try play(player, frames: Int(48_000 * seconds / setting.tempo) + 4_800)[0]
                let comparison = EnvelopeComparison(
                    output: output, outputRate: 48_000, reference: source, referenceRate: 48_000, tempo: setting.tempo,
                    steps: signal.steps(seconds: seconds), margin: StretchedSourceRenderTests.stepMargin)
                StretchedSourceRenderTests.assertPlaysEveryWindow(comparison, "live path \(signal), \(setting.summary)")
                XCTAssertEqual(player.underrunCount, 0)
            }
        }
    }

    /// A 0.5 s tone of whole cycles, looped at tempo 0.85 with a −2 semitone shift: no gap, no click, no dip at the seams.
    func testAStretchedLoopJoinsEndToStartWithoutAGapOrAClick() throws {
        let rate = 48_000.0
        let tone = ToneMeasure.sine(hz: 440, rate: rate, frames: 24_000).map { $0 * 0.5 }   // 220 whole cycles
        let url = try writeFile("loop.wav", rate: 48_000, channels: [tone])
        let setting = TimePitch(tempo: 0.85, semitones: -2)
        let player = try FilePlayerStream(url: url, channels: 1, loops: true, gainDB: 0, timePitch: setting)
        defer { player.close() }
        let output = try play(player, frames: 96_000)[0]
        let loop = 24_000 / setting.tempo
        for seam in (1...3).map({ Int((Double($0) * loop).rounded()) }) {
            let measure = LoopSeamMeasure(output: output, seam: seam, reference: 2_400..<(Int(loop) - 2_400), rate: rate)
            print("loop seam at frame \(seam): \(measure)")
            XCTAssertLessThanOrEqual(measure.longestZeroRun, 1, "no gap of zeros at the seam at frame \(seam)")
            XCTAssertLessThanOrEqual(measure.largestStep, measure.ownStep * 1.05, "no sample step at the seam above the tone's own")
            XCTAssertLessThanOrEqual(measure.levelSpread, 1, "the level holds across the seam at frame \(seam)")
        }
        XCTAssertEqual(player.underrunCount, 0)
    }

    /// Bursts of 50 ms every 200 ms of the file, looped, at tempo 0.85; 10 ms after the fourth burst starts the tempo
    /// goes to 1.7. Had the change taken effect `d` after it, the next burst starts at change + d + (what was left of
    /// the gap, less 0.85·d of it played at the old tempo) ÷ 1.7: `d` is solved from where it does start.
    func testATempoChangeWhilePlayingIsHeardWithinAHundredMilliseconds() throws {
        let rate = 48_000.0, spacing = 9_600, (old, new) = (0.85, 1.7)
        let bursts = ToneMeasure.sine(hz: 880, rate: rate, frames: 48_000).enumerated().map { frame, sample in
            frame % spacing < 2_400 ? sample * 0.5 : 0
        }
        let url = try writeFile("bursts.wav", rate: 48_000, channels: [bursts])
        let player = try FilePlayerStream(url: url, channels: 1, loops: true, gainDB: 0, timePitch: TimePitch(tempo: old))
        defer { player.close() }
        let change = Int(3 * Double(spacing) / old) + 480
        let output = try play(player, frames: 80_000) { done in
            guard done >= change && player.timePitch.tempo == old else { return }
            // The worst case: the ring as full as the disk thread keeps it, all of it at the old tempo.
            try? waitFor("the ring topped up", timeout: 5) { player.bufferedFrames >= player.stretchedQueuedFrames }
            player.setTimePitch(TimePitch(tempo: new))
        }[0]
        // Onsets: where the 1 ms RMS rises above half the bursts' level after being below a tenth of it.
        var onsets: [Double] = [], isQuiet = true
        for start in stride(from: 0, to: output.count - 48, by: 12) {
            let rms = (output[start..<(start + 48)].reduce(0.0) { $0 + Double($1 * $1) } / 48).squareRoot()
            if rms < 0.035 { isQuiet = true } else if rms > 0.18 && isQuiet {
                onsets.append(Double(start))
                isQuiet = false
            }
        }
        let before = onsets.filter { $0 < Double(change) }
        XCTAssertEqual(before.count, 4, "onsets \(onsets)")
        for (index, onset) in before.enumerated() {
            XCTAssertEqual(onset, before[0] + Double(index * spacing) / old, accuracy: 240, "burst \(index) at the old tempo")
        }
        let next = try XCTUnwrap(onsets.first { $0 > Double(change) }, "onsets \(onsets)")
        let left = Double(spacing) - (Double(change) - before[3]) * old   // file frames from the change to the next burst
        let delay = (next - Double(change) - left / new) / (1 - old / new)
        print("tempo change heard after \(String(format: "%.0f", delay / 48)) ms (the next burst at \(next), \(String(format: "%.0f", (next - Double(change)) / 48)) ms after the change)")
        XCTAssertGreaterThan(delay, 0)
        XCTAssertLessThanOrEqual(delay / 48, 100, "the new tempo within 100 ms")
        let after = onsets.filter { $0 >= next }
        for (index, onset) in after.enumerated() {
            XCTAssertEqual(onset, next + Double(index * spacing) / new, accuracy: 240, "burst \(index) after the change at the new tempo")
        }
        XCTAssertEqual(player.underrunCount, 0)
    }
}
