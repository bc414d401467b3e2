// The gain/polarity DSP kernel behind the built-in `gain` unit. Realtime: process runs on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Applies a smoothed gain (with optional polarity inversion) to up to two channels.
///
/// setup: `init`; update: ``update(gainDB:isInverted:)`` (ramps over the smoothing time, a polarity
/// flip ramps through zero); process: ``process(inputs:outputs:channels:frames:)``.
public struct GainKernel: Sendable {
    @usableFromInline var smoother: LinearSmoother
    /// The gain target in dB.
    public private(set) var gainDB: Float
    /// Whether the polarity is inverted.
    public private(set) var isInverted: Bool

    /// A kernel at `gainDB` dB, smoothing changes over `smoothingTime` seconds at `sampleRate`.
    public init(gainDB: Float, isInverted: Bool, sampleRate: Double, smoothingTime: Double = LinearSmoother.defaultTime) {
        self.gainDB = gainDB
        self.isInverted = isInverted
        let linear = Decibels.linearGain(fromDecibels: gainDB) * (isInverted ? -1 : 1)
        smoother = LinearSmoother(value: linear, time: smoothingTime, sampleRate: sampleRate)
    }

    /// Sets new targets; the output ramps to them within the smoothing time. Realtime-safe (libm only).
    public mutating func update(gainDB: Float, isInverted: Bool) {
        self.gainDB = gainDB
        self.isInverted = isInverted
        smoother.setTarget(Decibels.linearGain(fromDecibels: gainDB) * (isInverted ? -1 : 1))
    }

    /// Whether zeros in give exact +0.0 out and change nothing (silence gating): the gain is settled, not negative.
    public var isAtRest: Bool { smoother.isSettled && smoother.value.sign == .plus }

    /// Jumps to the current targets (after a reset).
    public mutating func settle() { smoother.reset(to: smoother.target) }

    /// Processes `channels` channels of `frames` frames; input and output may alias.
    /// (Not `@_noLocks`: debug builds compile per file and cannot see ``LinearSmoother``'s bodies.)
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>,
        outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        channels: Int,
        frames: Int
    ) {
        let start = smoother
        for channel in 0..<channels {
            var ramp = start
            let input = inputs[channel]
            let output = outputs[channel]
            if ramp.isSettled {
                let gain = ramp.value
                for frame in 0..<frames { output[frame] = input[frame] * gain }
            } else {
                for frame in 0..<frames { output[frame] = input[frame] * ramp.next() }
            }
            smoother = ramp
        }
    }
}
