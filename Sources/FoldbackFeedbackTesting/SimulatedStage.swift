// A simulated stage for tests and the demo: a loop from a unit's output back into its input through a room model. Non-realtime (offline, faster than realtime).
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP
public import FoldbackEngine
public import FoldbackFeedback
#if canImport(Glibc)
import Glibc
#endif

/// The acoustic path from a wedge back into the mic: a delay, a gentle band-pass, resonant peaks and a loop gain.
public struct RoomModel: Sendable {
    /// Wedge-to-mic delay, seconds (5 … 30 ms on a stage).
    public var delaySeconds: Double
    /// Resonant peaks (frequency Hz, gain dB, Q): the wedge's and the room's modes.
    public var resonances: [(frequency: Double, gainDB: Double, q: Double)]

    /// A room with the given delay and peaks.
    public init(delaySeconds: Double = 0.011, resonances: [(frequency: Double, gainDB: Double, q: Double)] = [(2500, 9, 6), (820, 6, 5)]) {
        self.delaySeconds = delaySeconds
        self.resonances = resonances
    }

    /// The sections of the room's response at `sampleRate`: 120 Hz and 9 kHz Butterworth edges, then the peaks.
    public func sections(sampleRate: Double) -> [BiquadCoefficients] {
        let omega = { (frequency: Double) in 2 * Double.pi * frequency / sampleRate }
        return [BiquadDesign.section(.highPass, omega: omega(120), gainDB: 0, q: 0.7071),
                BiquadDesign.section(.lowPass, omega: omega(min(9000, 0.45 * sampleRate)), gainDB: 0, q: 0.7071)]
            + resonances.map { BiquadDesign.section(.peak, omega: omega($0.frequency), gainDB: $0.gainDB, q: $0.q) }
    }

    /// The loop gain (dB) at which the loop starts to howl: the inverse of the room's largest gain at a
    /// frequency where the delayed response comes round in phase (found on a 0.5 Hz grid). Also returns that frequency.
    public func maximumStableGain(sampleRate: Double) -> (gainDB: Double, frequency: Double) {
        let sections = sections(sampleRate: sampleRate)
        let delay = (delaySeconds * sampleRate).rounded()
        var best = (gainDB: Double.infinity, frequency: 0.0)
        var previousPhase = 0.0
        var frequency = 20.0
        while frequency < 0.45 * sampleRate {
            let omega = 2 * Double.pi * frequency / sampleRate
            var (re, im) = (1.0, 0.0)
            for c in sections {
                let (nr, ni) = (c.b0 + c.b1 * cos(-omega) + c.b2 * cos(-2 * omega), c.b1 * sin(-omega) + c.b2 * sin(-2 * omega))
                let (dr, di) = (1 + c.a1 * cos(-omega) + c.a2 * cos(-2 * omega), c.a1 * sin(-omega) + c.a2 * sin(-2 * omega))
                let denominator = dr * dr + di * di
                let (hr, hi) = ((nr * dr + ni * di) / denominator, (ni * dr - nr * di) / denominator)
                (re, im) = (re * hr - im * hi, re * hi + im * hr)
            }
            let phase = atan2(im, re) - omega * delay
            let wrapped = phase - 2 * Double.pi * (phase / (2 * Double.pi)).rounded()
            if frequency > 20, previousPhase > 0, wrapped <= 0, abs(previousPhase - wrapped) < 1 {   // crossing 0, not ±π
                let gainDB = -10 * log10(re * re + im * im)
                if gainDB < best.gainDB { best = (gainDB, frequency) }
            }
            previousPhase = wrapped
            frequency += 0.5
        }
        return best
    }
}

/// Closes the loop: mic = source + loop gain × room(wedge output, delayed); wedge output = wedge path(mic),
/// soft-clipped at full scale by the wedge's amplifier (tanh). The wedge path is a `FeedbackUnit` (already
/// unprepared, or nothing) or any block processor (a whole engine graph from mic strip to wedge bus). Runs block
/// by block (blocks no longer than the room's delay) as fast as the CPU allows; `analyze` (a `FeedbackUnit`
/// made with `runsWorker: false`: its analysis) runs after every 5 ms of audio, as a worker would.
public final class SimulatedStage {
    /// Processes `frames` mic samples into as many wedge samples (before the amplifier).
    public typealias WedgePath = (_ mic: UnsafePointer<Float>, _ wedge: UnsafeMutablePointer<Float>, _ frames: Int) -> Void

    public let sampleRate: Double
    private let delay: Int
    private let sections: [BiquadCoefficients]
    private var state: [SIMD2<Double>]
    private var wedge: [Float]
    private var position = 0
    private let path: WedgePath?
    private let analyze: () -> Void
    private let slot: UnitRenderSlot?
    /// The unit's render slot (to set its parameters as the engine would), nil without a unit.
    public var unitSlot: UnitRenderSlot? { slot }

    /// A stage at `sampleRate` through `room`, with `unit` (already unprepared) in the wedge's path or nothing.
    public convenience init(room: RoomModel, sampleRate: Double, unit: FeedbackUnit?, maxFrames: Int) throws {
        let slot = try unit?.prepare(channels: 1, sampleRate: sampleRate, maxFrames: maxFrames)
        let path: WedgePath? = slot.map { slot in
            { mic, wedge, frames in
                var inputs = [mic]
                var outputs = [wedge]
                slot.functions.process(slot.state, &inputs, &outputs, Int32(frames))
            }
        }
        self.init(room: room, sampleRate: sampleRate, maxFrames: maxFrames, slot: slot, path: path, analyze: { unit?.analyzePending() })
    }

    /// A stage at `sampleRate` through `room` whose wedge path is `path` (at most `maxFrames` at once);
    /// `analyze` runs every 5 ms of audio.
    public convenience init(room: RoomModel, sampleRate: Double, maxFrames: Int, path: @escaping WedgePath, analyze: @escaping () -> Void = {}) {
        self.init(room: room, sampleRate: sampleRate, maxFrames: maxFrames, slot: nil, path: path, analyze: analyze)
    }

    private init(room: RoomModel, sampleRate: Double, maxFrames: Int, slot: UnitRenderSlot?, path: WedgePath?, analyze: @escaping () -> Void) {
        self.sampleRate = sampleRate
        delay = Int((room.delaySeconds * sampleRate).rounded())
        sections = room.sections(sampleRate: sampleRate)
        state = Array(repeating: SIMD2(), count: sections.count)
        wedge = Array(repeating: 0, count: delay + maxFrames)
        self.slot = slot
        self.path = path
        self.analyze = analyze
    }

    /// Runs `frames` frames in blocks of `blockSize`; `source(frame)` is the singer's sound at the mic,
    /// `loopGainDB(frame)` the loop gain. Returns the wedge output.
    public func run(frames: Int, blockSize: Int, source: (Int) -> Float, loopGainDB: (Int) -> Double) -> [Float] {
        precondition(blockSize <= delay, "blocks must not exceed the room delay")
        var output = [Float](repeating: 0, count: frames)
        var mic = [Float](repeating: 0, count: blockSize)
        var processed = [Float](repeating: 0, count: blockSize)
        var analysed = 0
        let analysisFrames = max(1, Int(0.005 * sampleRate))
        var start = 0
        while start < frames {
            let count = min(blockSize, frames - start)
            for index in 0..<count {
                let frame = start + index
                let back = wedge[(position + index + wedge.count - delay) % wedge.count]
                let gain = pow(10, loopGainDB(frame) / 20)
                mic[index] = source(frame) + Float(gain * room(Double(back)))
            }
            if let path {
                mic.withUnsafeBufferPointer { input in
                    processed.withUnsafeMutableBufferPointer { out in path(input.baseAddress!, out.baseAddress!, count) }
                }
            } else {
                processed = mic
            }
            for index in 0..<count {
                let speaker = tanh(processed[index])
                wedge[(position + index) % wedge.count] = speaker
                output[start + index] = speaker
            }
            position = (position + count) % wedge.count
            start += count
            if start - analysed >= analysisFrames {
                analyze()
                analysed = start
            }
        }
        return output
    }

    private func room(_ sample: Double) -> Double {
        var x = sample
        for index in sections.indices {
            let c = sections[index]
            let y = c.b0 * x + state[index].x
            state[index].x = c.b1 * x - c.a1 * y + state[index].y
            state[index].y = c.b2 * x - c.a2 * y
            x = y
        }
        return x
    }
}
