// Deterministic test and demo signals as functions of absolute JACK frame time. Realtime: sample(at:sampleRate:).
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackJACK
import Foundation

/// A signal the test player writes, defined for every absolute frame time so a recording can be
/// checked sample by sample against what was played at the same frame time.
public enum TestSignal: Sendable, Equatable {
    /// Digital silence.
    case silence
    /// A sine; `frequency` in hertz, `level` is the peak in dBFS.
    case sine(frequency: Double, level: Double)
    /// Uniform white noise from a hash of the frame time; `level` is the peak in dBFS.
    /// Different `seed`s give uncorrelated sequences.
    case noise(seed: UInt32, level: Double)
    /// A sung "ah": a harmonic tone with formants, vibrato and a syllable envelope on a short melody; peak in dBFS.
    case voice(level: Double)
    /// A soft sustained triad moving C – Am – F – G every two seconds; peak in dBFS.
    case chord(level: Double)

    /// Parses `sine:FREQ[:DB]`, `noise[:DB]`, `voice[:DB]`, `chord[:DB]` or `silence`.
    /// - Parameter seed: the noise seed (give each channel its own).
    public init(parsing text: String, seed: UInt32 = 0) throws(JACKError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        func number(_ index: Int, default fallback: Double?, what: String) throws(JACKError) -> Double {
            guard index < parts.count else {
                guard let fallback else { throw .invalidArgument("Signal '\(text)' needs a \(what).") }
                return fallback
            }
            guard let value = Double(parts[index]), value.isFinite else {
                throw .invalidArgument("Signal '\(text)': '\(parts[index])' is not a valid \(what).")
            }
            return value
        }
        let maxParts = ["sine": 3, "noise": 2, "voice": 2, "chord": 2, "silence": 1][parts[0]]
        guard let maxParts else {
            throw .invalidArgument(
                "Unknown signal '\(text)'. Use sine:FREQ[:DB], noise[:DB], voice[:DB], chord[:DB] or silence.")
        }
        guard parts.count <= maxParts else { throw .invalidArgument("Signal '\(text)' has too many ':' fields.") }
        switch parts[0] {
        case "sine":
            let frequency = try number(1, default: nil, what: "frequency in Hz")
            guard frequency > 0 else { throw .invalidArgument("Signal '\(text)': frequency must be above 0 Hz.") }
            self = .sine(frequency: frequency, level: try number(2, default: -12, what: "level in dB"))
        case "noise": self = .noise(seed: seed, level: try number(1, default: -18, what: "level in dB"))
        case "voice": self = .voice(level: try number(1, default: -12, what: "level in dB"))
        case "chord": self = .chord(level: try number(1, default: -18, what: "level in dB"))
        default: self = .silence
        }
    }

    /// The sample at absolute frame time `frameTime`. Allocation-free; called on the audio thread.
    /// - Parameter sampleRate: in hertz.
    public func sample(at frameTime: UInt32, sampleRate: Double) -> Float {
        switch self {
        case .silence:
            return 0
        case .sine(let frequency, let level):
            return Self.sine(at: frameTime, frequency: frequency, sampleRate: sampleRate, amplitude: Self.amplitude(level))
        case .noise(let seed, let level):
            return Float(Self.amplitude(level)) * Self.hashedUniform(frameTime, seed: seed)
        case .voice(let level):
            return Float(Self.amplitude(level) * Self.voice(Double(frameTime) / sampleRate))
        case .chord(let level):
            return Float(Self.amplitude(level) * Self.chord(Double(frameTime) / sampleRate))
        }
    }

    /// Writes `frames` samples from frame time `start` into `buffer`, as ``sample(at:sampleRate:)`` gives them
    /// (bit for bit), with the level's `pow` taken once per call rather than once per sample. Realtime.
    public func fill(_ buffer: UnsafeMutablePointer<Float>, frames: Int, from start: UInt32, sampleRate: Double) {
        switch self {
        case .silence:
            buffer.update(repeating: 0, count: frames)
        case .sine(let frequency, let level):
            let amplitude = Self.amplitude(level)
            for frame in 0..<frames {
                buffer[frame] = Self.sine(at: start &+ UInt32(truncatingIfNeeded: frame), frequency: frequency, sampleRate: sampleRate, amplitude: amplitude)
            }
        case .noise(let seed, let level):
            let amplitude = Float(Self.amplitude(level))
            for frame in 0..<frames { buffer[frame] = amplitude * Self.hashedUniform(start &+ UInt32(truncatingIfNeeded: frame), seed: seed) }
        case .voice, .chord:
            for frame in 0..<frames { buffer[frame] = sample(at: start &+ UInt32(truncatingIfNeeded: frame), sampleRate: sampleRate) }
        }
    }

    static func amplitude(_ level: Double) -> Double { pow(10, level / 20) }

    /// A sine sample at `frameTime`; reducing to one cycle before sin() keeps the phase error far below 1e-6
    /// for a day of frames.
    @inline(__always)
    private static func sine(at frameTime: UInt32, frequency: Double, sampleRate: Double, amplitude: Double) -> Float {
        let cycles = (Double(frameTime) * frequency / sampleRate).truncatingRemainder(dividingBy: 1)
        return Float(amplitude * sin(2 * Double.pi * cycles))
    }

    /// A uniform value in [-1, 1) from a 32-bit integer hash (lowbias32) of the frame time and seed.
    static func hashedUniform(_ frameTime: UInt32, seed: UInt32) -> Float {
        var x = frameTime ^ (seed &* 0x9E37_79B9)
        x ^= x >> 16
        x = x &* 0x7FEB_352D
        x ^= x >> 15
        x = x &* 0x846C_A68B
        x ^= x >> 16
        return Float(Int32(bitPattern: x)) / 2_147_483_648
    }

    /// One syllable every 0.4 s on a looping eight-note phrase; each note starts its own phase at 0.
    private static func voice(_ seconds: Double) -> Double {
        let syllable = 0.4
        let index = Int((seconds / syllable).rounded(.down))
        let local = seconds - Double(index) * syllable
        let semitones: Double = switch index % 8 {
        case 0: 0
        case 1: 3
        case 2: 5
        case 3: 7
        case 4: 5
        case 5: 3
        case 6: 0
        default: -2
        }
        let fundamental = 220 * exp2(semitones / 12)
        // Vibrato: 5.5 Hz, ±1.2 %, integrated so the phase is continuous within the syllable.
        let rate = 5.5, depth = 0.012
        let cycles = fundamental * local + fundamental * depth / (2 * .pi * rate) * (1 - cos(2 * .pi * rate * local))
        // Envelope: 30 ms raised-cosine attack, hold, 80 ms release ending at 85 % of the syllable.
        let sounding = syllable * 0.85
        let attack = 0.03, release = 0.08
        let envelope: Double
        if local >= sounding {
            envelope = 0
        } else if local < attack {
            envelope = 0.5 - 0.5 * cos(.pi * local / attack)
        } else if local > sounding - release {
            envelope = 0.5 + 0.5 * cos(.pi * (local - (sounding - release)) / release)
        } else {
            envelope = 1
        }
        guard envelope > 0 else { return 0 }
        var sum = 0.0, norm = 0.0
        var harmonic = 1
        while harmonic <= 16 && Double(harmonic) * fundamental < 4000 {
            let frequency = Double(harmonic) * fundamental
            let weight = formant(frequency, 700, 110, 1) + formant(frequency, 1220, 120, 0.5)
                + formant(frequency, 2600, 160, 0.25) + 0.3 / Double(harmonic)
            sum += weight * sin(2 * .pi * Double(harmonic) * cycles)
            norm += weight
            harmonic += 1
        }
        return envelope * sum / norm
    }

    private static func formant(_ frequency: Double, _ centre: Double, _ bandwidth: Double, _ gain: Double) -> Double {
        let offset = (frequency - centre) / bandwidth
        return gain / (1 + offset * offset)
    }

    /// Four voices (root an octave down plus the triad), two harmonics each, dipping to silence at each change.
    private static func chord(_ seconds: Double) -> Double {
        let length = 2.0
        let index = Int((seconds / length).rounded(.down))
        let local = seconds - Double(index) * length
        let notes: (Double, Double, Double) = switch index % 4 {
        case 0: (60, 64, 67)
        case 1: (57, 60, 64)
        case 2: (53, 57, 60)
        default: (55, 59, 62)
        }
        let fade = 0.05
        let edge = min(local, length - local)
        let envelope = (edge < fade ? 0.5 - 0.5 * cos(.pi * edge / fade) : 1) * (0.8 + 0.2 * sin(2 * .pi * 0.25 * seconds))
        // No array literal here: this runs on the audio thread.
        func partial(_ note: Double) -> Double {
            let frequency = 440 * exp2((note - 69) / 12)
            return sin(2 * .pi * frequency * seconds) + 0.3 * sin(4 * .pi * frequency * seconds)
        }
        let sum = partial(notes.0 - 12) + partial(notes.0) + partial(notes.1) + partial(notes.2)
        return envelope * sum / (4 * 1.3)
    }
}
