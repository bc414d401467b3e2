// The `deesser` unit's kernel: a band (or high-pass) key, a fast peak envelope, and the band or the whole signal reduced down to the threshold. Realtime: process, update and reset run on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A split-band de-esser on 1 or 2 channels (linked: one gain from the louder key).
///
/// setup: `init` (allocates the per-channel filter state; nothing afterwards); update: ``update(_:)``;
/// process: ``process(inputs:outputs:frames:)``.
///
/// The key is each channel through the key section (``BiquadDesign``'s constant-0-dB band-pass, or a
/// Butterworth high-pass), in `Double`. Its peak, followed by a one-pole envelope (``DeesserParameters/attack``
/// rising, ``DeesserParameters/release`` falling), gives the gain g = clamp(threshold / envelope, range, 1):
/// the band is pulled down to the threshold, by at most the range. Split-band, the output is
/// x − (1 − g) · key(x): at g = 1 exactly x, and at the band's centre exactly g · x (the band-pass is 0 dB
/// with zero phase there), the rest of the spectrum untouched; `wide` outputs g · x; `listen` outputs the key.
/// Threshold, range, wide and listen glide over ``smoothingTime``; a new frequency or Q takes effect at once.
public struct DeesserKernel: ~Copyable {
    /// The ramp time of threshold, range, wide and listen changes, in seconds.
    public static let smoothingTime = 0.020

    /// The channels it runs (1 or 2).
    public let channels: Int
    /// The rate it runs at, in Hz.
    public let sampleRate: Double
    /// The settings last applied (sanitised).
    public private(set) var parameters: DeesserParameters
    /// The largest reduction of the last processed block, in dB (≥ 0).
    public private(set) var reductionDB: Float = 0

    private var coefficients = BiquadCoefficients.identity
    private let state: UnsafeMutablePointer<Double>      // z1, z2 per channel
    private var envelope: Float = 0
    private var attackCoefficient: Float = 1
    private var releaseCoefficient: Float = 1
    private var threshold: LinearSmoother
    private var floor: LinearSmoother
    private var wide: LinearSmoother
    private var listen: LinearSmoother

    /// A de-esser with `parameters` on `channels` channels (1 or 2) at `sampleRate` Hz. Allocates; call off
    /// the audio thread.
    public init(parameters: DeesserParameters, channels: Int, sampleRate: Double) {
        let settings = parameters.sanitized
        self.channels = min(max(channels, 1), 2)
        self.sampleRate = sampleRate
        self.parameters = settings
        state = .allocate(capacity: 4)
        state.initialize(repeating: 0, count: 4)
        threshold = LinearSmoother(value: Self.linear(settings.threshold), time: Self.smoothingTime, sampleRate: sampleRate)
        floor = LinearSmoother(value: Self.linear(-settings.range), time: Self.smoothingTime, sampleRate: sampleRate)
        wide = LinearSmoother(value: settings.isWide ? 1 : 0, time: Self.smoothingTime, sampleRate: sampleRate)
        listen = LinearSmoother(value: settings.isListening ? 1 : 0, time: Self.smoothingTime, sampleRate: sampleRate)
        update(settings)
    }

    deinit {
        state.deallocate()
    }

    private static func linear(_ decibels: Float) -> Float { Float(pow(10, Double(decibels) / 20)) }

    /// The key section of `parameters` at `sampleRate`: what the unit listens to and reduces.
    public static func keySection(_ parameters: DeesserParameters, sampleRate: Double) -> BiquadCoefficients {
        let settings = parameters.sanitized
        let omega = 2 * Double.pi * min(Double(settings.frequency), 0.45 * sampleRate) / sampleRate
        switch settings.key {
        case .band: return BiquadDesign.section(.bandPass, omega: omega, gainDB: 0, q: Double(settings.q))
        case .highPass: return BiquadDesign.section(.highPass, omega: omega, gainDB: 0, q: 1 / 2.0.squareRoot())
        }
    }

    /// Applies `newParameters` (sanitised).
    public mutating func update(_ newParameters: DeesserParameters) {
        let settings = newParameters.sanitized
        parameters = settings
        coefficients = Self.keySection(settings, sampleRate: sampleRate)
        attackCoefficient = Float(1 - exp(-1000 / (Double(settings.attack) * sampleRate)))
        releaseCoefficient = Float(1 - exp(-1000 / (Double(settings.release) * sampleRate)))
        threshold.setTarget(Self.linear(settings.threshold))
        floor.setTarget(Self.linear(-settings.range))
        wide.setTarget(settings.isWide ? 1 : 0)
        listen.setTarget(settings.isListening ? 1 : 0)
    }

    /// Clears the filters and the envelope and jumps the ramps to their targets.
    public mutating func reset() {
        state.update(repeating: 0, count: 4)
        envelope = 0
        reductionDB = 0
        threshold.reset(to: threshold.target)
        floor.reset(to: floor.target)
        wide.reset(to: wide.target)
        listen.reset(to: listen.target)
    }

    /// Whether processing zeros would write exact +0.0 and change nothing (silence gating; it has no clocks):
    /// the key filter's state and the envelope exactly zero (so the gain is 1), the last block reduced nothing
    /// and no threshold, range, wide or listen ramp is moving.
    public func isAtRest() -> Bool {
        guard envelope == 0, reductionDB == 0, threshold.isSettled, floor.isSettled, wide.isSettled, listen.isSettled else { return false }
        for index in 0..<2 * channels where state[index] != 0 { return false }
        return true
    }

    /// De-esses ``channels`` channels of `frames` frames from `inputs` into `outputs` (which may not alias).
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int
    ) {
        let c = coefficients
        var smallest: Float = 1
        for frame in 0..<frames {
            var keys: (Float, Float) = (0, 0)
            var peak: Float = 0
            for channel in 0..<channels {
                let x = Double(inputs[channel][frame])
                let z = state + 2 * channel
                let key = Float(c.run(x, &z[0], &z[1]))
                if channel == 0 { keys.0 = key } else { keys.1 = key }
                peak = max(peak, abs(key))
            }
            envelope += (peak - envelope) * (peak > envelope ? attackCoefficient : releaseCoefficient)
            let limit = threshold.next(), lowest = floor.next()
            let gain = envelope > limit ? max(lowest, limit / envelope) : 1
            smallest = min(smallest, gain)
            let wideness = wide.next(), listening = listen.next()
            for channel in 0..<channels {
                let x = inputs[channel][frame], key = channel == 0 ? keys.0 : keys.1
                let split = x - (1 - gain) * key
                let reduced = split + wideness * (gain * x - split)
                outputs[channel][frame] = reduced + listening * (key - reduced)
            }
        }
        reductionDB = smallest < 1 ? -20 * log10(smallest) : 0
        flushTinyState()
    }

    /// Flushes an envelope and key filter state below 1e-30 (−600 dB, far under any threshold) to zero once a
    /// block, as the EQ does its filters': left alone, a release ends stuck just above the smallest normal float
    /// (its step underflows) and the key filter's `Double` state takes a minute to underflow, so the unit would
    /// never come to rest on silence.
    private mutating func flushTinyState() {
        if envelope < 1e-30 { envelope = 0 }
        for index in 0..<2 * channels where abs(state[index]) < 1e-30 { state[index] = 0 }
    }
}
