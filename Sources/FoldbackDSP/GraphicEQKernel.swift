// The `geq` unit's kernel: 31 fader settings, their corrected band gains, and the EQ kernel that runs them. Realtime: setters, process and reset run on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A 31-band ⅓-octave graphic EQ on one or two channels: faders in, corrected peak bands
/// (``GraphicEQDesign``) run by an ``EQKernel``.
///
/// setup: `init`; update: ``setFader(_:band:)``, ``setOutputGain(decibels:)``; process:
/// ``process(inputs:outputs:frames:)``. Fader moves are collected and the band gains solved once at the
/// start of the next block (a burst of 31 moves costs one solve); the bands then glide to their new gains
/// as the parametric EQ's do (``LinearSmoother/defaultTime``, sections redesigned every 16 frames), so
/// moves are click-free. With every fader at 0 dB every band is an exact identity section.
public struct GraphicEQKernel: ~Copyable {
    private var eq: EQKernel
    private let design: GraphicEQDesign
    private let faders: UnsafeMutablePointer<Double>
    private let gains: UnsafeMutablePointer<Double>
    private var needsSolve = false

    /// A graphic EQ with `faders` (dB, up to ``GraphicEQDesign/bandCount``; clamped to ±15 dB) and an
    /// output gain, on `channels` (1 or 2) channels at `sampleRate`. Allocates; call off the audio thread.
    public init(faders initial: [Double], outputGainDB: Double = 0, channels: Int, sampleRate: Double) {
        let count = GraphicEQDesign.bandCount
        let design = GraphicEQDesign(sampleRate: sampleRate)
        let faders = UnsafeMutablePointer<Double>.allocate(capacity: count)
        let gains = UnsafeMutablePointer<Double>.allocate(capacity: count)
        for band in 0..<count {
            let value = band < initial.count && !initial[band].isNaN ? initial[band] : 0
            (faders + band).initialize(to: min(max(value, GraphicEQDesign.faderRange.lowerBound), GraphicEQDesign.faderRange.upperBound))
        }
        gains.initialize(repeating: 0, count: count)
        design.solve(faders: faders, gains: gains)
        let solved = (0..<count).map { gains[$0] }
        eq = EQKernel(bands: design.bands(gains: solved), outputGainDB: outputGainDB, channels: channels, sampleRate: sampleRate)
        self.design = design
        self.faders = faders
        self.gains = gains
    }

    deinit {
        faders.deallocate()
        gains.deallocate()
    }

    /// Fader `band`'s setting in dB.
    public func fader(_ band: Int) -> Double { faders[band] }

    /// The band gains the faders call for (dB), after the next block if a fader just moved.
    public func bandGains() -> [Double] { (0..<GraphicEQDesign.bandCount).map { eq.band($0).gainDB } }

    /// The bands as they are heading (what ``EQResponse`` plots for the current faders).
    public func targetBands() -> [EQBand] { (0..<GraphicEQDesign.bandCount).map { eq.band($0) } }

    /// Moves fader `band` (0 … 30) to `decibels` (clamped to ±15 dB); NaN and unknown bands are ignored.
    public mutating func setFader(_ decibels: Double, band: Int) {
        guard !decibels.isNaN, band >= 0, band < GraphicEQDesign.bandCount else { return }
        let value = min(max(decibels, GraphicEQDesign.faderRange.lowerBound), GraphicEQDesign.faderRange.upperBound)
        if faders[band] == value { return }
        faders[band] = value
        needsSolve = true
    }

    /// Ramps the output gain to `decibels`.
    public mutating func setOutputGain(decibels: Double) { eq.setOutputGain(decibels: decibels) }

    /// Filters `frames` frames from `inputs` to `outputs`.
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int
    ) {
        if needsSolve { retargetBands() }
        eq.process(inputs: inputs, outputs: outputs, frames: frames)
    }

    /// Whether processing zeros would write exact +0.0 and change nothing but the EQ's chunk clock (silence
    /// gating): no fader move waiting to be solved and the EQ at rest (``EQKernel/isAtRest()``).
    public mutating func isAtRest() -> Bool { !needsSolve && eq.isAtRest() }

    /// Moves the clocks by `frames`, as ``process(inputs:outputs:frames:)`` does at rest.
    public mutating func advanceAtRest(frames: Int) { eq.advanceAtRest(frames: frames) }

    /// Clears the filters and jumps every glide to its target.
    public mutating func reset() {
        if needsSolve { retargetBands() }
        eq.reset()
    }

    /// Solves the band gains for the faders and starts each band's glide.
    private mutating func retargetBands() {
        needsSolve = false
        design.solve(faders: faders, gains: gains)
        for band in 0..<design.activeBands { eq.setGain(gains[band], band: band) }
    }
}
