// foldback-probe --feedback-stage: renders the simulated stage story (howl without the feedback unit, tamed with it) offline to a WAV. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackFeedback
import FoldbackFeedbackTesting
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackRender
import Foundation

/// The feedback story on ``SimulatedStage``: a singer at the mic, the wedge's loop gain pushed from 6 dB below
/// the room's maximum stable gain (MSG) to `overDB` above it over 6 s and held; first with nothing in the
/// wedge's path (it howls), then, after a second of silence, with a live `feedback` unit (it does not).
enum FeedbackStageDemo {
    static let sampleRate = 48_000.0

    /// Renders both runs into `path` (mono) and prints what happened.
    static func render(to path: String, overDB: Double, loopMS: Double = 11, format: AudioFileFormat) throws {
        let room = RoomModel(delaySeconds: loopMS / 1000)
        let (msg, frequency) = room.maximumStableGain(sampleRate: sampleRate)
        print("Room: the loop from wedge to mic \(fmt(loopMS)) ms, peaks at 2.5 kHz (+9 dB) and 820 Hz (+6 dB); maximum stable gain "
              + "\(fmt(msg)) dB (at \(Int(frequency)) Hz). Pushing the loop to MSG + \(fmt(overDB)) dB over 6 s, then holding 3 s.")
        let voice = TestSignal.voice(level: -24)
        let noise = TestSignal.noise(seed: 7, level: -60)
        let source = { (frame: Int) in
            voice.sample(at: UInt32(truncatingIfNeeded: frame), sampleRate: sampleRate)
                + noise.sample(at: UInt32(truncatingIfNeeded: frame), sampleRate: sampleRate)
        }
        let frames = Int(9 * sampleRate)
        let gain = { (frame: Int) in msg - 6 + (overDB + 6) * min(Double(frame) / (6 * sampleRate), 1) }
        let open = try SimulatedStage(room: room, sampleRate: sampleRate, unit: nil, maxFrames: 256)
            .run(frames: frames, blockSize: 256, source: source, loopGainDB: gain)
        let unit = FeedbackUnit(label: "demo wedge", runsWorker: false)
        let tamed = try SimulatedStage(room: room, sampleRate: sampleRate, unit: unit, maxFrames: 256)
            .run(frames: frames, blockSize: 256, source: source, loopGainDB: gain)
        let tail = frames - Int(3 * sampleRate)..<frames
        print("Without the unit: the last 3 s at \(fmt(level(open, tail))) dBFS (howling).")
        print("With it: the last 3 s at \(fmt(level(tamed, tail))) dBFS; notches: "
              + unit.notches.map { "\(Int($0.frequency.rounded())) Hz \(Int($0.depthDB)) dB" }.joined(separator: ", "))
        let writer = try AudioFileWriter(url: URL(fileURLWithPath: path), sampleRate: Int(sampleRate), channelCount: 1, format: format)
        try writer.write(planar: [open.map { $0 * 0.5 } + [Float](repeating: 0, count: Int(sampleRate)) + tamed.map { $0 * 0.5 }])
        try writer.finish()
        print("Wrote \(path): 9 s without the unit, 1 s of silence, 9 s with it (at −6 dB, to spare your ears).")
    }

    private static func level(_ samples: [Float], _ range: Range<Int>) -> Double {
        let sum = samples[range].reduce(0.0) { $0 + Double($1) * Double($1) }
        return 10 * log10(max(sum / Double(range.count), 1e-20))
    }

    private static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
}
