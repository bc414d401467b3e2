// Prepares an HRTF set's raw responses: each one's folded, liftered cepstrum (its minimum-phase version) and its arrival. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``HRIRSet`` keeps of each raw response, found once at load.
///
/// - The cepstrum: the real cepstrum of the response's log-magnitude spectrum (analysed at ``analysisSize`` frames,
///   floored 100 dB below its peak), folded onto its causal half (the minimum-phase version of the same magnitude) and
///   tapered to zero over the second half of its ``length`` coefficients (a lifter: the log-magnitude spectrum is
///   smoothed just enough that the minimum-phase response dies out within ``length`` frames, so truncation cannot
///   deepen or fill a notch unevenly).
/// - The arrival of each ear: where the minimum-phase response best matches the measured one (the peak of their
///   cross-correlation), then the pair moved apart symmetrically so the interaural time difference of what is
///   rendered (the cross-correlation peak of the two ears within ±1 ms) equals the measured pair's.
struct HRIRPreparation {
    let length: Int
    let irLength: Int
    /// FFT size of the analysis: a power of two holding a raw response and a synthesized one twice over.
    let analysisSize: Int
    let plans: RealFFTPlans
    let time: UnsafeMutablePointer<Float>
    let first: UnsafeMutablePointer<Float>
    let second: UnsafeMutablePointer<Float>
    let synthesis: HRIRSynthesis
    /// The largest interaural lag searched, frames.
    let maxInterauralLag: Int

    init(length: Int, transformSize: Int, irLength: Int, sampleRate: Double) {
        self.length = length
        self.irLength = irLength
        var size = 1
        while size < 2 * (irLength + length + HRIRSet.preRoll) { size *= 2 }
        analysisSize = size
        plans = RealFFTPlans.plans(size: size)
        time = RealFFTPlans.allocateReal(size)
        first = RealFFTPlans.allocateComplex(size / 2 + 1)
        second = RealFFTPlans.allocateComplex(size / 2 + 1)
        synthesis = HRIRSynthesis(length: length, transformSize: transformSize)
        maxInterauralLag = max(1, Int(0.001 * sampleRate))
    }

    func deallocate() {
        for memory in [time, first, second] { RealFFTPlans.free(memory) }
        synthesis.deallocate()
    }

    /// Writes each of `responses` raw responses' cepstrum (``length`` coefficients) to `cepstra` and arrival (frames) to
    /// `onsets`; responses come in pairs (left, right) of one direction.
    func prepare(irs: UnsafePointer<Float>, responses: Int, cepstra: UnsafeMutablePointer<Float>, onsets: UnsafeMutablePointer<Float>) {
        for response in 0..<responses { cepstrum(of: irs + response * irLength, into: cepstra + response * length) }
        var made = [[Float]](repeating: [], count: 2)
        var alignment: [Float] = [0, 0]
        for direction in 0..<(responses / 2) {
            for ear in 0..<2 {
                let response = direction * 2 + ear
                synthesis.clear()
                synthesis.add(cepstra + response * length, weight: 1)
                synthesis.synthesize(fraction: 0, gain: 1)
                made[ear] = Array(UnsafeBufferPointer(start: synthesis.output, count: synthesis.outputLength))
                let raw = Array(UnsafeBufferPointer(start: irs + response * irLength, count: irLength))
                alignment[ear] = peakLag(of: raw, behind: made[ear], lags: -HRIRSet.preRoll...(irLength - 1)) + Float(HRIRSet.preRoll)
            }
            let left = Array(UnsafeBufferPointer(start: irs + direction * 2 * irLength, count: irLength))
            let right = Array(UnsafeBufferPointer(start: irs + (direction * 2 + 1) * irLength, count: irLength))
            let lags = -maxInterauralLag...maxInterauralLag
            let measured = peakLag(of: right, behind: left, lags: lags)
            let synthesized = peakLag(of: made[1], behind: made[0], lags: lags)
            let middle = (alignment[0] + alignment[1]) / 2, correction = measured - synthesized
            onsets[direction * 2] = middle - correction / 2
            onsets[direction * 2 + 1] = middle + correction / 2
        }
    }

    /// The folded, liftered cepstrum of the raw response at `raw` (``irLength`` frames), ``length`` coefficients.
    private func cepstrum(of raw: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        let size = analysisSize
        time.update(from: raw, count: irLength)
        (time + irLength).update(repeating: 0, count: size - irLength)
        plans.forward(time, into: first)
        var peak: Float = 0
        for bin in 0...(size / 2) {
            let magnitude = (first[2 * bin] * first[2 * bin] + first[2 * bin + 1] * first[2 * bin + 1]).squareRoot()
            first[2 * bin] = magnitude
            peak = max(peak, magnitude)
        }
        let floor = max(peak * 1e-5, .leastNormalMagnitude)
        for bin in 0...(size / 2) {
            first[2 * bin] = log(max(first[2 * bin], floor))
            first[2 * bin + 1] = 0
        }
        plans.inverse(first, into: time)
        let half = length / 2
        for index in 0..<length {
            var value = time[index] / Float(size) * (index == 0 ? 1 : 2)
            if index >= half { value *= 0.5 * (1 + cos(Float.pi * Float(index - half) / Float(length - half))) }
            output[index] = value
        }
    }

    /// The lag in `lags` (frames, refined by a parabola through the peak) maximising Σ late[t + lag] · early[t].
    private func peakLag(of late: [Float], behind early: [Float], lags: ClosedRange<Int>) -> Float {
        let size = analysisSize
        transform(late, into: first)
        transform(early, into: second)
        for bin in 0...(size / 2) {
            let (ar, ai, br, bi) = (first[2 * bin], first[2 * bin + 1], second[2 * bin], second[2 * bin + 1])
            first[2 * bin] = ar * br + ai * bi
            first[2 * bin + 1] = ai * br - ar * bi
        }
        plans.inverse(first, into: time)
        func value(_ lag: Int) -> Float { time[(lag % size + size) % size] }
        var peak = lags.lowerBound
        for lag in lags where value(lag) > value(peak) { peak = lag }
        var offset: Float = 0
        if peak > lags.lowerBound && peak < lags.upperBound {
            let (a, b, c) = (value(peak - 1), value(peak), value(peak + 1))
            let denominator = a - 2 * b + c
            if denominator != 0 { offset = 0.5 * (a - c) / denominator }
        }
        return Float(peak) + offset
    }

    private func transform(_ signal: [Float], into spectrum: UnsafeMutablePointer<Float>) {
        let count = min(signal.count, analysisSize)
        signal.withUnsafeBufferPointer { time.update(from: $0.baseAddress!, count: count) }
        (time + count).update(repeating: 0, count: analysisSize - count)
        plans.forward(time, into: spectrum)
    }
}
