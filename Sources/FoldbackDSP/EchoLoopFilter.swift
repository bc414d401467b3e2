// The echo's loop filters: a Butterworth high-pass and low-pass per line whose corners glide. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The high-pass (``EchoParameters/lowCut``) and low-pass (``EchoParameters/highCut``) sections every
/// pass through an ``EchoKernel``'s loop goes through, so each repeat is darker and thinner than the last.
///
/// Both are second-order Butterworth sections (Q = 1/√2) of ``BiquadDesign`` in `Double`, run in
/// transposed direct form II, one state per line. A corner at its range's end is off (the section is
/// skipped, so the loop is exact). A new corner glides in log frequency at up to ``glideOctavesPerSecond``,
/// the coefficients recomputed every ``EchoKernel/chunkFrames`` frames, so a sweep does not click.
struct EchoLoopFilter {
    /// The fastest a corner moves, in octaves per second.
    static let glideOctavesPerSecond = 16.0
    private static let q = 1 / 2.0.squareRoot()

    struct Section {
        var coefficients = BiquadCoefficients.identity
        var isOn = false
        var corner: Double
        var target: Double
        let offCorner: Double

        init(corner: Double, offCorner: Double) {
            self.corner = corner
            target = corner
            self.offCorner = offCorner
        }
    }

    /// One line's filter memory.
    struct State {
        var high1 = 0.0, high2 = 0.0, low1 = 0.0, low2 = 0.0

        /// Whether all memory is zero (silence gating).
        var isZero: Bool { high1 == 0 && high2 == 0 && low1 == 0 && low2 == 0 }
    }

    /// Whether neither corner glides (``glide(frames:)`` changes nothing).
    var isSettled: Bool { highPass.corner == highPass.target && lowPass.corner == lowPass.target }

    private(set) var highPass: Section
    private(set) var lowPass: Section
    private let sampleRate: Double

    /// Filters at `lowCut` and `highCut` Hz (their coefficients set at once).
    init(lowCut: Float, highCut: Float, sampleRate: Double) {
        self.sampleRate = sampleRate
        highPass = Section(corner: Double(lowCut), offCorner: Double(EchoParameters.lowCutRange.lowerBound))
        lowPass = Section(corner: Double(highCut), offCorner: Double(EchoParameters.highCutRange.upperBound))
        redesign(&highPass, type: .highPass)
        redesign(&lowPass, type: .lowPass)
    }

    /// Sets the corners to glide to.
    mutating func setTargets(lowCut: Float, highCut: Float) {
        highPass.target = Double(lowCut)
        lowPass.target = Double(highCut)
    }

    /// Moves each corner on by `frames` frames' worth of glide and recomputes what moved.
    mutating func glide(frames: Int) {
        let step = Self.glideOctavesPerSecond * Double(frames) / sampleRate
        if move(&highPass, step: step) { redesign(&highPass, type: .highPass) }
        if move(&lowPass, step: step) { redesign(&lowPass, type: .lowPass) }
    }

    private func move(_ section: inout Section, step: Double) -> Bool {
        guard section.corner != section.target else { return false }
        let octaves = log2(section.target / section.corner)
        if abs(octaves) <= step {
            section.corner = section.target
        } else {
            section.corner *= exp2(octaves > 0 ? step : -step)
        }
        return true
    }

    private func redesign(_ section: inout Section, type: EQBandType) {
        section.isOn = section.corner != section.offCorner
        let corner = min(section.corner, 0.45 * sampleRate)
        section.coefficients = section.isOn
            ? BiquadDesign.section(type, omega: 2 * Double.pi * corner / sampleRate, gainDB: 0, q: Self.q) : .identity
    }

    /// Filters one sample through both sections with `state`.
    @inline(__always)
    func process(_ input: Float, _ state: inout State) -> Float {
        var x = Double(input)
        if highPass.isOn { x = highPass.coefficients.run(x, &state.high1, &state.high2) }
        if lowPass.isOn { x = lowPass.coefficients.run(x, &state.low1, &state.low2) }
        return Float(x)
    }
}
