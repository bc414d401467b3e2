// The engine's own parameters (strips, sends, buses, limiters, cue, talkback) declared once, with the engine's ranges. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

extension ParameterTree {
    /// The declarations of the parameters the engine itself owns; units declare theirs in their ``EngineUnit/parameters``.
    public enum EngineParameters {
        /// A fader or send level: −∞ (silence) up to ``EngineGraph/maxGainDB``.
        public static let gain = ParameterDescriptor(
            key: Key.gain, range: -Float.infinity...EngineGraph.maxGainDB, defaultValue: 0, summary: "Level in dB (−inf is silence).")
        /// A strip's pan, −1 (left) … +1 (right).
        public static let pan = ParameterDescriptor(key: Key.pan, range: -1...1, defaultValue: 0, summary: "Pan, −1 left to +1 right.")
        /// A stereo send's width into a stereo bus: 0 mono sum, 1 as is, 2 side doubled (see ``SendTapLaw``).
        public static let width = ParameterDescriptor(
            key: Key.width, range: SendTapLaw.widthRange, defaultValue: 1, curve: .linear, isSmoothed: true,
            summary: "Stereo width of the send: 0 mono sum, 1 as is, 2 wider.")
        /// A send's azimuth in a binaural bus (see ``BinauralAxis``).
        public static let azimuth = ParameterDescriptor(
            key: Key.azimuth, range: BinauralPosition.azimuthRange, defaultValue: 0, curve: .linear, isSmoothed: true,
            summary: "Binaural bus: direction of the source, degrees (0 front, 90 right, -90 left, 180 behind).")
        /// A send's elevation in a binaural bus.
        public static let elevation = ParameterDescriptor(
            key: Key.elevation, range: BinauralPosition.elevationRange, defaultValue: 0, curve: .linear, isSmoothed: true,
            summary: "Binaural bus: height of the source, degrees (0 ear level, 90 above).")
        /// A send's distance in a binaural bus.
        public static let distance = ParameterDescriptor(
            key: Key.distance, range: BinauralPosition.distanceRange, defaultValue: BinauralPosition.referenceDistance, curve: .linear,
            isSmoothed: true, summary: "Binaural bus: distance of the source, metres (level 1/r and delay beyond 1 m).")
        /// A strip's or bus's mute (ramped).
        public static let mute = ParameterDescriptor(
            key: Key.mute, range: 0...1, defaultValue: 0, type: .toggle, isSmoothed: true, summary: "Mute (ramped).")
        /// A strip's solo-in-place (ramped).
        public static let solo = ParameterDescriptor(
            key: Key.solo, range: 0...1, defaultValue: 0, type: .toggle, isSmoothed: true, summary: "Solo in place (ramped).")
        /// Whether a strip runs at all.
        public static let enabled = ParameterDescriptor(
            key: Key.enabled, range: 0...1, defaultValue: 1, type: .toggle, isSmoothed: true, summary: "A disabled strip is silent and skips its units.")
        /// A strip's input trim before its units.
        public static let trim = ParameterDescriptor(
            key: Key.trim, range: EngineGraph.trimRange, defaultValue: 0, summary: "Input trim before the units, dB.")
        /// What a strip's sends apply against its compensated trim moves.
        public static let trimCompensation = ParameterDescriptor(
            key: Key.trimCompensation, range: -2 * EngineGraph.trimRange.upperBound...2 * EngineGraph.trimRange.upperBound,
            defaultValue: 0, summary: "The compensation the sends apply against trim moves, dB.")
        /// A talkback strip's press.
        public static let talkback = ParameterDescriptor(
            key: Key.talkback, range: 0...1, defaultValue: 0, type: .toggle, isSmoothed: true, summary: "Talkback pressed (dims the others).")
        /// A bus limiter's ceiling (glides).
        public static let limiterCeiling = ParameterDescriptor(
            key: Key.limiterCeiling, range: EngineGraph.limiterCeilingRange, defaultValue: LimiterSettings().ceilingDB, curve: .linear,
            summary: "The limiter's ceiling, dBFS.")
        /// A binaural bus's room level (glides).
        public static let roomLevel = ParameterDescriptor(
            key: Key.roomLevel, range: BinauralRoom.levelRange, defaultValue: 0, curve: .linear, isSmoothed: true,
            summary: "The level of the bus's room (early reflections and a short tail), dB.")
        /// A bus limiter's release.
        public static let limiterRelease = ParameterDescriptor(
            key: Key.limiterRelease, range: EngineGraph.limiterReleaseRange, defaultValue: LimiterSettings().releaseMs, summary: "The limiter's release, ms.")
        /// A unit's bypass (crossfaded).
        public static let bypass = ParameterDescriptor(
            key: Key.bypass, range: 0...1, defaultValue: 0, type: .toggle, isSmoothed: true, summary: "Bypass the unit (crossfaded).")
        /// A cue selection: a bus, a strip's PFL or AFL (crossfaded).
        public static func cueSelection(_ key: String) -> ParameterDescriptor {
            ParameterDescriptor(key: key, range: 0...1, defaultValue: 0, type: .toggle, isSmoothed: true, summary: "In the cue (summed, crossfaded).")
        }
        /// Takes everything out of the cue.
        public static let cueClear = ParameterDescriptor(
            key: Key.clear, range: 0...1, defaultValue: 0, type: .trigger, summary: "Takes everything out of the cue.")
    }
}
