// Tells feedback rings from music in a stream of short-time spectra: peak tracking and the howl criteria. Non-realtime (the feedback worker).
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thresholds a spectral peak must pass to be called a feedback ring (documented in docs/presets.md).
public struct HowlCriteria: Sendable, Hashable {
    /// The peak stands this far above the mean power of the analysed band *outside its own hump* (the bins
    /// around it down to ``humpDepthDB`` under it), dB: a peak-to-average ratio (PAPR) that neither the ring's
    /// own power nor a crowd of comb resonances around it (a long loop's) can pull down.
    public var peakToAverageDB = 22.0
    /// A peak's hump: the bins on either side still within this many dB of it (at most ``humpMaxBins`` each side).
    public var humpDepthDB = 20.0
    /// The widest hump, bins on each side.
    public var humpMaxBins = 48
    /// A peak this many dB under another within ``maskingWidth`` of its frequency is that one's leakage or
    /// sideband, not a ring.
    public var maskingDB = 40.0
    /// See ``maskingDB``: a fraction of the frequency.
    public var maskingWidth = 0.06
    /// Peaks quieter than this (dBFS of a sine) are ignored.
    public var floorDB = -70.0
    /// The peak passes the ratio on this many successive analysis frames (53 ms at 48 kHz with the feedback
    /// unit's 5.3 ms hop).
    public var persistenceFrames = 12
    /// Since the track began both its level and its peak-to-average ratio rose by at least this much, and over
    /// those frames neither fell (a ring grows, and grows against the rest of the spectrum; a held note does
    /// neither, a crescendo lifts everything, a fading chord's last note only stands out more), dB.
    public var growthDB = 3.0
    /// And it is still growing: over the second half of those frames its level rose at least this much, and it
    /// is within 0.5 dB of the highest it had in them (a syllable's or a swell's onset is over by then), dB.
    public var recentGrowthDB = 0.3
    /// …unless it is this loud (dBFS): a howl that reached the amplifier's limit before it was caught grows no more.
    public var saturationDB = -12.0
    /// And its frequency did not drift: the least-squares line through its frequencies over those frames moves
    /// at most this many bins from first to last (a sweep or a sung note's vibrato moves on; a ring stays)…
    public var frequencySpreadBins = 0.2
    /// …and it wobbles within this many bins (the crest of a crowd of resonances closer than the analysis
    /// resolves, a long loop's, wanders as they beat).
    public var frequencyWobbleBins = 2.0
    /// A peak with a partner at an integer ratio within this fraction is musical: one below it (f/k, k = 2…10:
    /// it is an upper harmonic) or an even harmonic above it (2f, 4f, 6f: it is a fundamental).
    public var harmonicTolerance = 0.015
    /// Or within this many bins of the exact ratio (a loop's resonances pull each harmonic of a voice heard
    /// through it towards the nearest one: by up to half their spacing).
    public var harmonicToleranceBins = 2.0
    /// A partner above the peak only counts when it is within this many dB of the peak.
    public var upperPartnerRangeDB = 30.0
    /// But not a partner that grew this many dB less than a peak growing as a loop's ring (see ``ringGrowthDB``)
    /// over the track's frames: a note's partials swell together; a loop's rings, every one near a multiple of its
    /// comb spacing, each grow at their own rate.
    public var comodulationDB = 3.0
    /// A peak grows as a loop's ring when over the track's frames it rose at least this much, steadily (dB).
    public var ringGrowthDB = 10.0

    /// The defaults above.
    public init() {}
}

/// One ring: where, how loud, how fast it was growing.
public struct HowlRing: Sendable, Hashable {
    /// Interpolated frequency, Hz.
    public var frequency: Double
    /// Level of the peak, dBFS (sine-calibrated).
    public var levelDB: Double
    /// Growth since its track began, dB.
    public var growthDB: Double

    /// A ring at `frequency` Hz, `levelDB` dBFS, grown by `growthDB`.
    public init(frequency: Double, levelDB: Double, growthDB: Double) {
        self.frequency = frequency
        self.levelDB = levelDB
        self.growthDB = growthDB
    }
}

/// Tracks spectral peaks from frame to frame and reports the ones that behave like feedback.
///
/// Each frame: local maxima above ``HowlCriteria/floorDB`` are found, their frequency refined by a
/// parabola through the log-magnitudes of the three top bins, and each one's peak-to-average ratio taken
/// against the band outside its own hump (so a ring stands out whatever the spacing of the room's resonances
/// around it). Peaks passing it are matched to the tracks of the frame before (within 1.5 bins). A track is
/// reported once, as a ``HowlRing``, when over its last ``HowlCriteria/persistenceFrames`` frames it passed
/// every time and its ratio did not fall, the ratio has grown since the track began, it held its frequency
/// and it has no harmonic partner (none that grew with it, when it grows as a loop's ring); a track is forgotten
/// after two frames without its peak.
public struct HowlDetector: Sendable {
    struct Track {
        var bin: Double
        var levels: [Double] = []
        var ratios: [Double] = []
        var bins: [Double] = []
        var lowestRatio = Double.infinity
        var lowestLevel = Double.infinity
        var missed = 0
        var isReported = false
    }

    /// The thresholds in use.
    public var criteria: HowlCriteria
    /// Hz per bin.
    public let binWidth: Double
    private let lowBin: Int
    private let highBin: Int
    private var tracks: [Track] = []
    private var bandPower = 0.0
    /// The spectra (bins 0 … highBin + 2) of the latest ``HowlCriteria/persistenceFrames`` frames, a ring
    /// (`historyNext` is the slot the next frame takes), for a partner's level when a track began.
    private var history: [Float] = []
    private var historyFrames = 0
    private var historyCount = 0
    private var historyNext = 0
    /// Mean power of the analysed band in the latest frame, dB.
    public var averageDB: Double { 10 * log10(max(bandPower / Double(highBin - lowBin + 1), 1e-30)) }

    /// A detector for spectra of `binCount` bins spaced `binWidth` Hz, analysing 60 Hz … 0.45 × the rate.
    public init(binCount: Int, binWidth: Double, criteria: HowlCriteria = HowlCriteria()) {
        self.binWidth = binWidth
        self.criteria = criteria
        lowBin = max(6, Int(60 / binWidth))
        highBin = min(binCount - 7, Int(0.9 * Double(binCount)))
    }

    /// Analyses one frame of power spectrum (`spectrumDB[k]`, dB of a sine of that level at bin k) and
    /// returns the rings newly found in it.
    public mutating func analyze(_ spectrumDB: UnsafeBufferPointer<Float>) -> [HowlRing] {
        bandPower = 0
        for bin in lowBin...highBin { bandPower += power(spectrumDB[bin]) }
        remember(spectrumDB)
        let peaks = findPeaks(spectrumDB)
        for index in tracks.indices { tracks[index].missed += 1 }
        for peak in peaks where peak.passes {      // only peaks passing the ratio can make a ring: track those alone
            if let index = tracks.firstIndex(where: { abs($0.bin - peak.bin) <= 1.5 && $0.missed > 0 }) {
                tracks[index].append(peak, keep: criteria.persistenceFrames)
            } else {
                var track = Track(bin: peak.bin)
                track.append(peak, keep: criteria.persistenceFrames)
                tracks.append(track)
            }
        }
        tracks.removeAll { $0.missed > 2 }
        var rings: [HowlRing] = []
        for index in tracks.indices where !tracks[index].isReported && isHowl(tracks[index], among: peaks) {
            tracks[index].isReported = true
            let track = tracks[index]
            rings.append(HowlRing(frequency: track.bin * binWidth, levelDB: track.levels.last!,
                                  growthDB: track.ratios.last! - track.lowestRatio))
        }
        return rings
    }

    /// Forgets every track (after a notch moved the spectrum, or on reset).
    public mutating func reset() {
        tracks.removeAll()
        historyCount = 0
    }

    /// Keeps this frame's spectrum in the history ring (sized to the persistence, which a caller may change).
    private mutating func remember(_ spectrum: UnsafeBufferPointer<Float>) {
        let stride = highBin + 3
        if historyFrames != criteria.persistenceFrames {
            historyFrames = max(criteria.persistenceFrames, 1)
            history = Array(repeating: 0, count: historyFrames * stride)
            (historyCount, historyNext) = (0, 0)
        }
        history.withUnsafeMutableBufferPointer { ring in
            for bin in 0..<stride { ring[historyNext * stride + bin] = spectrum[bin] }
        }
        historyNext = (historyNext + 1) % historyFrames
        historyCount = min(historyCount + 1, historyFrames)
    }

    /// The level (dB, parabola through the top bin within ±1 of `bin` and its neighbours) `framesAgo` frames
    /// ago (0: this frame), or nil when the history does not reach that far.
    private func pastLevel(near bin: Double, framesAgo: Int) -> Double? {
        guard framesAgo < historyCount else { return nil }
        let stride = highBin + 3
        let base = ((historyNext - 1 - framesAgo + 2 * historyFrames) % historyFrames) * stride
        let centre = min(max(Int(bin.rounded()), lowBin), highBin)
        let top = (centre - 1...centre + 1).max { history[base + $0] < history[base + $1] }!
        let left = Double(history[base + top - 1]), middle = Double(history[base + top]), right = Double(history[base + top + 1])
        let curvature = left - 2 * middle + right
        let offset = curvature < 0 ? min(max(0.5 * (left - right) / curvature, -0.5), 0.5) : 0
        return middle - 0.25 * (left - right) * offset
    }

    /// How far the spectrum's top bin within `halfWidth` Hz of `frequency` (at least ±1 bin) stands above the
    /// band's mean power outside its hump in the frame last analysed (the ratio the criteria use), and its level, dB.
    public func peakToAverage(_ spectrumDB: UnsafeBufferPointer<Float>, at frequency: Double, halfWidth: Double = 0)
        -> (peakToAverageDB: Double, levelDB: Double) {
        let bin = Int((frequency / binWidth).rounded())
        let reach = max(1, Int(halfWidth / binWidth))
        let low = max(bin - reach, lowBin), high = min(bin + reach, highBin)
        guard low <= high else { return (0, -200) }
        let top = (low...high).max { spectrumDB[$0] < spectrumDB[$1] }!
        return (Double(spectrumDB[top]) - meanOutsideHumpDB(spectrumDB, top), Double(spectrumDB[top]))
    }

    struct Peak {
        var bin: Double
        var levelDB: Double
        var ratioDB: Double
        var passes: Bool
    }

    private func power(_ level: Float) -> Double { pow(10, Double(level) / 10) }

    /// The mean power (dB) of the band without the hump around `bin`: the bins either side down to
    /// ``HowlCriteria/humpDepthDB`` under it (at least ±2, the Hann main lobe).
    private func meanOutsideHumpDB(_ spectrum: UnsafeBufferPointer<Float>, _ bin: Int) -> Double {
        let edge = spectrum[bin] - Float(criteria.humpDepthDB)
        var low = max(bin - 2, lowBin), high = min(bin + 2, highBin)
        while low > max(lowBin, bin - criteria.humpMaxBins), spectrum[low - 1] > edge { low -= 1 }
        while high < min(highBin, bin + criteria.humpMaxBins), spectrum[high + 1] > edge { high += 1 }
        var hump = 0.0
        for index in low...high { hump += power(spectrum[index]) }
        let others = highBin - lowBin + 1 - (high - low + 1)
        return 10 * log10(max((bandPower - hump) / Double(max(others, 1)), 1e-30))
    }

    private func findPeaks(_ spectrum: UnsafeBufferPointer<Float>) -> [Peak] {
        var peaks: [Peak] = []
        for bin in lowBin...highBin {
            let level = spectrum[bin]
            guard Double(level) > criteria.floorDB, level > spectrum[bin - 1], level >= spectrum[bin + 1],
                  level > spectrum[bin - 2], level >= spectrum[bin + 2] else { continue }
            let left = Double(spectrum[bin - 1]), centre = Double(level), right = Double(spectrum[bin + 1])
            let curvature = left - 2 * centre + right
            let offset = curvature < 0 ? 0.5 * (left - right) / curvature : 0
            let peakLevel = centre - 0.25 * (left - right) * offset
            let ratio = peakLevel - meanOutsideHumpDB(spectrum, bin)
            peaks.append(Peak(bin: Double(bin) + offset, levelDB: peakLevel, ratioDB: ratio, passes: ratio >= criteria.peakToAverageDB))
        }
        // A peak far under a strong one close by is its leakage or a sideband (a notch acting on it), not a ring of its own.
        let masked = peaks.map { peak in
            peaks.contains { abs($0.bin - peak.bin) <= criteria.maskingWidth * peak.bin && $0.levelDB - peak.levelDB >= criteria.maskingDB }
        }
        for index in peaks.indices where masked[index] { peaks[index].passes = false }
        return peaks
    }

    private func isHowl(_ track: Track, among peaks: [Peak]) -> Bool {
        guard track.missed == 0, track.ratios.count >= criteria.persistenceFrames else { return false }
        guard track.ratios.last! - track.lowestRatio >= criteria.growthDB, track.ratios.last! >= track.ratios.first! - 0.5,
              track.levels.last! - track.lowestLevel >= criteria.growthDB, track.levels.last! >= track.levels.max()! - 0.5,
              track.levels.last! >= criteria.saturationDB || track.levels.last! - track.levels[track.levels.count / 2] >= criteria.recentGrowthDB
        else { return false }
        guard abs(drift(track.bins)) <= criteria.frequencySpreadBins, track.bins.max()! - track.bins.min()! <= criteria.frequencyWobbleBins
        else { return false }
        return !hasHarmonicPartner(track, among: peaks)
    }

    /// Whether the track grows as a loop's ring does: exponentially (a straight line in dB), by at least
    /// ``HowlCriteria/ringGrowthDB`` over its frames, every frame at least as loud as the one before (within 0.2 dB) and
    /// standing at least as far over the band (within 1 dB), its second half rising at least half as much as its first
    /// (a note's onset, or the analysis window filling with it, rises fast and then levels off; a chord change lets one
    /// partial fall before another rises; speech moves the rest of the band, so its peaks' ratios jump).
    private func growsAsARing(_ track: Track) -> Bool {
        let levels = track.levels
        let middle = levels[levels.count / 2]
        guard levels.last! - levels.first! >= criteria.ringGrowthDB, levels.last! - middle >= 0.5 * (middle - levels.first!) else { return false }
        return zip(levels, levels.dropFirst()).allSatisfy { $1 >= $0 - 0.2 }
            && zip(track.ratios, track.ratios.dropFirst()).allSatisfy { $1 >= $0 - 1 }
    }

    /// How far the least-squares line through `bins` (one per frame) moves from the first frame to the last.
    private func drift(_ bins: [Double]) -> Double {
        let count = Double(bins.count)
        let meanX = (count - 1) / 2, meanY = bins.reduce(0, +) / count
        var (covariance, variance) = (0.0, 0.0)
        for (index, bin) in bins.enumerated() {
            covariance += (Double(index) - meanX) * (bin - meanY)
            variance += (Double(index) - meanX) * (Double(index) - meanX)
        }
        return variance > 0 ? covariance / variance * (count - 1) : 0
    }

    /// A peak at f/k (the track is an upper harmonic) or a strong even harmonic (the track is a fundamental).
    private func hasHarmonicPartner(_ track: Track, among peaks: [Peak]) -> Bool {
        let frequency = track.bin
        let level = track.levels.last!
        for peak in peaks where abs(peak.bin - frequency) > 1.5 && level - peak.levelDB <= 40 {
            let isAbove = peak.bin > frequency
            let ratio = isAbove ? peak.bin / frequency : frequency / peak.bin
            let harmonic = ratio.rounded()
            guard (2...(isAbove ? 6 : 10)).contains(harmonic) else { continue }
            let tolerance = max(criteria.harmonicTolerance * harmonic, criteria.harmonicToleranceBins / min(peak.bin, frequency))
            guard abs(ratio - harmonic) <= tolerance else { continue }
            // …unless the track grows as a loop's ring on its own and the partner did not grow with it (a loop's rings lie
            // at multiples of its comb spacing, so a short loop's next ring is often near f/2 or 2f of the one that howls).
            if growsAsARing(track), let then = pastLevel(near: peak.bin, framesAgo: track.levels.count - 1),
               peak.levelDB - then < track.levels.last! - track.levels.first! - criteria.comodulationDB {
                continue
            }
            // Above the peak only even harmonics count: a clipping amplifier adds odd ones to a howl.
            if !isAbove || (Int(harmonic) % 2 == 0 && level - peak.levelDB <= criteria.upperPartnerRangeDB) { return true }
        }
        return false
    }
}

extension HowlDetector.Track {
    mutating func append(_ peak: HowlDetector.Peak, keep: Int) {
        bin = peak.bin
        missed = 0
        levels.append(peak.levelDB)
        ratios.append(peak.ratioDB)
        lowestRatio = min(lowestRatio, peak.ratioDB)
        lowestLevel = min(lowestLevel, peak.levelDB)
        bins.append(peak.bin)
        if levels.count > keep {
            levels.removeFirst()
            ratios.removeFirst()
            bins.removeFirst()
        }
    }
}
