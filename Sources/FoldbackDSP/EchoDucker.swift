// The echo's ducker: lowers the wet signal while the dry voice is above a threshold and lets it swell in the gaps. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ducks an echo under the voice that feeds it, the trick that keeps a vocal echo from clouding the words.
///
/// A peak envelope of the dry input (attack ``envelopeAttack``, release ``envelopeRelease``, one-pole time
/// constants) keys the duck while it is above the threshold; the wet gain then falls to −depth dB with the
/// time constant ``duckAttack`` and swells back to 0 dB with ``duckRelease`` once the key drops. A depth of
/// 0 dB leaves the gain at exactly 1.
struct EchoDucker {
    /// Time constants in seconds.
    static let envelopeAttack = 0.001, envelopeRelease = 0.020, duckAttack = 0.005, duckRelease = 0.120

    private let envelopeUp: Float, envelopeDown: Float, gainDown: Float, gainUp: Float
    private var envelope: Float = 0
    private var threshold: Float
    private var depth: Float
    /// The wet gain this frame (1 when not ducking).
    private(set) var gain: Float = 1

    /// A ducker at `sampleRate` with `depth` dB and `threshold` dBFS.
    init(depth: Float, threshold: Float, sampleRate: Double) {
        func coefficient(_ time: Double) -> Float { Float(1 - exp(-1 / (time * sampleRate))) }
        envelopeUp = coefficient(Self.envelopeAttack)
        envelopeDown = coefficient(Self.envelopeRelease)
        gainDown = coefficient(Self.duckAttack)
        gainUp = coefficient(Self.duckRelease)
        self.threshold = 1
        self.depth = 1
        set(depth: depth, threshold: threshold)
    }

    /// Sets the depth in dB (≥ 0) and the threshold in dBFS.
    mutating func set(depth: Float, threshold: Float) {
        self.depth = depth > 0 ? Float(pow(10, -Double(depth) / 20)) : 1
        self.threshold = Float(pow(10, Double(threshold) / 20))
    }

    /// Clears the envelope and the duck.
    mutating func reset() {
        envelope = 0
        gain = 1
    }

    /// Sets an envelope below 1e-30 (−600 dB, far under the lowest threshold, −70 dBFS) to zero; the echo calls it once
    /// a block. With FTZ on, as on the audio thread, the release step of an envelope this small is flushed to zero
    /// before it is subtracted, so the envelope would stay just above zero for good and silence never release the
    /// ducker (nor let the echo rest). Changes no output: the envelope only counts against the threshold.
    mutating func flushTinyEnvelope() {
        if envelope < 1e-30 { envelope = 0 }
    }

    /// Whether silence changes nothing: the envelope is zero and the wet gain fully back at 1.
    var isReleased: Bool { envelope == 0 && gain == 1 }

    /// Takes one frame's dry peak `level` (≥ 0) and returns the wet gain.
    @inline(__always)
    mutating func next(level: Float) -> Float {
        envelope += (level - envelope) * (level > envelope ? envelopeUp : envelopeDown)
        let target: Float = envelope > threshold ? depth : 1
        if gain != target {
            let next = gain + (target - gain) * (target < gain ? gainDown : gainUp)
            // Near 1 the swell's step falls under half a Float step (about 1.7e-4 short of 1 at 120 ms): it would stop
            // there for good, so it lands on the target once a step no longer moves it.
            gain = next == gain || abs(next - target) < 1e-6 ? target : next
        }
        return gain
    }
}
