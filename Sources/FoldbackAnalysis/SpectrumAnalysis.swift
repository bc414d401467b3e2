// The analyser's spectrum of a stream: ⅓-octave bars, a high-resolution line on a log axis with peak hold, the interpolated peak. Non-realtime (the analyser's worker, or a test driving it).
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// One analyser reading.
public struct SpectrumFrame: Sendable, Equatable {
    /// The point it was measured at (`bus/<name>`, `strip/<name>/pre`, `strip/<name>/post`).
    public var source: String
    /// dBFS per ⅓-octave band (``SpectrumAnalysis/bandCentres``); a full-scale sine reads 0 in its band.
    public var bands: [Float]
    /// The spectrum at ``SpectrumAnalysis/lineFrequencies`` (the loudest bin near each), dBFS per bin.
    public var line: [Float]
    /// The line's peak hold, dB.
    public var hold: [Float]
    /// The loudest bin between 20 Hz and 20 kHz, its frequency interpolated between bins, Hz.
    public var peakHz: Double
    /// Its level, dBFS.
    public var peakDB: Float
    /// Frames analysed since the source was selected.
    public var frames: Int

    /// A reading of `source` (the analyser makes them; tests and other surfaces may too).
    public init(source: String, bands: [Float], line: [Float], hold: [Float], peakHz: Double, peakDB: Float, frames: Int) {
        (self.source, self.bands, self.line, self.hold) = (source, bands, line, hold)
        (self.peakHz, self.peakDB, self.frames) = (peakHz, peakDB, frames)
    }
}

/// A spectrum analyser over a mono stream: Hann-windowed FFT (FFTW, ``SpectrumAnalyzer``) of the last
/// ``size`` samples (8192 at 48 kHz: 5.9 Hz bins, 171 ms), read as ⅓-octave bars (``ThirdOctaveBands``) and
/// a ``linePoints``-point line on a log frequency axis with a peak hold (held ``holdSeconds``, then falling
/// ``holdDecayDBPerSecond``). The peak's frequency comes from a parabola through the loudest bin and its
/// neighbours in dB (Hann: within a few hundredths of a bin).
public final class SpectrumAnalysis {
    /// Points on the line, 20 Hz … 20 kHz, evenly spaced in log frequency.
    public static let linePoints = 240
    /// The line's frequencies, Hz.
    public static let lineFrequencies: [Double] = (0..<linePoints).map { 20 * pow(1000, Double($0) / Double(linePoints - 1)) }
    /// The ⅓-octave bands' exact centres, Hz (IEC 61260 base-10, 20 Hz … 20 kHz: the `geq`'s bands).
    public static let bandCentres = ThirdOctaveBands.centres
    /// How long the peak hold holds, s, and how fast it then falls, dB/s.
    public static let holdSeconds = 1.0
    public static let holdDecayDBPerSecond: Float = 12
    /// Silence reads this, dBFS.
    public static let floorDB: Float = -140

    /// The sample rate, Hz, and the transform size, frames.
    public let sampleRate: Double
    public let size: Int
    private let analyzer: SpectrumAnalyzer
    private let bandTable: ThirdOctaveBands
    private var history: [Float]
    private var bandPowers: [Float]
    private var hold: [Float]
    private var holdAge: [Double]
    private let lineBins: [(first: Int, last: Int)]
    private var framesSeen = 0

    /// The transform size for `sampleRate`: the power of two at or above a sixth of a second (8192 at 44.1 and 48 kHz).
    public static func transformSize(sampleRate: Double) -> Int {
        var size = 64
        while Double(size) < sampleRate / 6 { size <<= 1 }
        return size
    }

    /// An analyser for a stream at `sampleRate` Hz, or nil when FFTW cannot plan its transform.
    public init?(sampleRate: Double) {
        let size = Self.transformSize(sampleRate: sampleRate)
        guard sampleRate > 0, let analyzer = SpectrumAnalyzer(size: size) else { return nil }
        self.sampleRate = sampleRate
        self.size = size
        self.analyzer = analyzer
        bandTable = ThirdOctaveBands(size: size, sampleRate: sampleRate)
        history = Array(repeating: 0, count: size)
        bandPowers = Array(repeating: 0, count: Self.bandCentres.count)
        hold = Array(repeating: Self.floorDB, count: Self.linePoints)
        holdAge = Array(repeating: 0, count: Self.linePoints)
        let binWidth = sampleRate / Double(size), step = pow(1000, 0.5 / Double(Self.linePoints - 1))
        lineBins = Self.lineFrequencies.map { frequency in
            let first = Int((frequency / step / binWidth).rounded()), last = Int((frequency * step / binWidth).rounded())
            return (min(max(first, 1), size / 2), min(max(last, first, 1), size / 2))
        }
    }

    /// Appends `frames` interleaved frames of `channels` channels (averaged to mono) to the stream.
    public func append(interleaved samples: UnsafePointer<Float>, channels: Int, frames: Int) {
        guard frames > 0, channels > 0 else { return }
        let kept = max(0, size - frames)
        if kept > 0 { history.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: $0.baseAddress! + (size - kept), count: kept) } }
        let skipped = max(0, frames - size), scale = 1 / Float(channels)
        for frame in skipped..<frames {
            var sum: Float = 0
            for channel in 0..<channels { sum += samples[frame * channels + channel] }
            history[kept + frame - skipped] = sum * scale
        }
        framesSeen += frames
    }

    /// Forgets the stream and the peak hold (a new source).
    public func reset() {
        for index in history.indices { history[index] = 0 }
        for index in hold.indices { hold[index] = Self.floorDB; holdAge[index] = 0 }
        framesSeen = 0
    }

    /// The spectrum of the last ``size`` samples, labelled `source`; the hold ages by `elapsed` seconds.
    public func analyse(source: String, elapsed: Double) -> SpectrumFrame {
        let powers = history.withUnsafeBufferPointer { analyzer.powerSpectrum($0) }
        bandTable.powers(from: powers, into: &bandPowers)
        func decibels(_ power: Float) -> Float { max(10 * log10(max(power, 1e-30)), Self.floorDB) }
        var line = [Float](repeating: Self.floorDB, count: Self.linePoints)
        for (point, bins) in lineBins.enumerated() {
            var loudest: Float = 0
            for bin in bins.first...bins.last { loudest = max(loudest, powers[bin]) }
            line[point] = decibels(loudest)
            if line[point] >= hold[point] {
                hold[point] = line[point]
                holdAge[point] = 0
            } else {
                holdAge[point] += elapsed
                if holdAge[point] > Self.holdSeconds { hold[point] = max(line[point], hold[point] - Self.holdDecayDBPerSecond * Float(elapsed)) }
            }
        }
        let peak = Self.peak(in: powers, binWidth: sampleRate / Double(size))
        return SpectrumFrame(
            source: source, bands: bandPowers.map(decibels), line: line, hold: hold, peakHz: peak.frequency, peakDB: decibels(peak.power),
            frames: framesSeen)
    }

    /// The loudest bin from 20 Hz to 20 kHz, its frequency from a parabola through it and its neighbours in dB.
    static func peak(in powers: UnsafeBufferPointer<Float>, binWidth: Double) -> (frequency: Double, power: Float) {
        let first = max(1, Int((20 / binWidth).rounded(.up))), last = min(powers.count - 2, Int(20_000 / binWidth))
        guard first <= last else { return (0, 0) }
        var loudest = first
        for bin in first...last where powers[bin] > powers[loudest] { loudest = bin }
        let left = Double(10 * log10(max(powers[loudest - 1], 1e-30))), centre = Double(10 * log10(max(powers[loudest], 1e-30)))
        let right = Double(10 * log10(max(powers[loudest + 1], 1e-30)))
        let curvature = left - 2 * centre + right
        let offset = curvature < 0 ? min(max(0.5 * (left - right) / curvature, -0.5), 0.5) : 0
        return ((Double(loudest) + offset) * binWidth, powers[loudest])
    }
}
