// A measured HRTF set made ready for rendering: onset-trimmed HRIR pairs, their onsets as pure delays. Non-realtime to build; read-only after.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One measured direction: azimuth −180…180° (0 front, positive to the listener's right), elevation −90…90°.
public struct HRIRDirection: Sendable, Hashable {
    /// Degrees, 0 = front, positive = right.
    public var azimuthDeg: Float
    /// Degrees, 0 = ear level, positive = up.
    public var elevationDeg: Float

    /// A direction.
    public init(azimuthDeg: Float, elevationDeg: Float) {
        self.azimuthDeg = azimuthDeg
        self.elevationDeg = elevationDeg
    }
}

/// A set of head-related impulse responses at one sample rate, ready for ``BinauralSource``.
///
/// Each measured response is split into a pure delay (its onset, where it first reaches −30 dB of its peak, less
/// ``onsetMargin`` frames) and the response from there on (truncated to ``length`` frames with a short fade). The
/// interaural time difference is then the difference of the two ears' delays, which interpolates linearly between
/// directions (interpolating the raw responses instead would sum two misaligned wavefronts: comb-filter notches),
/// and nothing before the onset is ever computed, so rendering adds no latency beyond the onset itself.
///
/// The storage is allocated once and never changes; ``BinauralSource`` reads it through pointers from the audio
/// thread, so the owner keeps the set alive as long as any source renders with it.
public final class HRIRSet: @unchecked Sendable {
    /// Frames kept before the detected onset (the rise of the response).
    public static let onsetMargin = 4
    /// Frames of the raised-cosine fade at a truncated response's end.
    public static let tailFade = 16

    /// The sample rate of the responses, Hz.
    public let sampleRate: Double
    /// Frames per trimmed response.
    public let length: Int
    /// The measured directions, in the set's order.
    public let directions: [HRIRDirection]
    /// The distance the set was measured at, metres.
    public let measuredDistance: Float
    /// Trimmed responses: direction-major, left then right, ``length`` frames each.
    let taps: UnsafeMutablePointer<Float>
    /// Each response's onset delay in frames (direction-major, left then right).
    let onsets: UnsafeMutablePointer<Float>
    /// Each response's arrival relative to its onset, frames (−4…4): the lag that best aligns it with the frontal
    /// response of the same ear. Interpolation places each neighbour at the interpolated arrival less its own, so
    /// neighbours add in phase (no comb-filter notches) while a measured direction stays exactly where it was.
    let alignments: UnsafeMutablePointer<Float>
    /// The largest alignment lag searched, frames.
    public static let maxAlignment = 4
    /// The measured directions grouped into elevation rings (see `HRIRSet+Rings.swift`).
    let rings: HRIRRings
    /// The longest onset delay, frames.
    public let maxOnset: Float

    /// A set from raw responses `irs` (direction-major, left then right, `irLength` frames each) with extra
    /// per-response delays `delays` in frames (SOFA's `Data.Delay`: one pair for all, or one pair per direction),
    /// truncated to `maxLength` frames after each onset (nil keeps them whole).
    public init(
        sampleRate: Double, irLength: Int, irs: [Float], delays: [Float], directions: [HRIRDirection],
        measuredDistance: Float, maxLength: Int? = nil
    ) {
        precondition(irs.count == directions.count * 2 * irLength && irLength > 0 && !directions.isEmpty)
        self.sampleRate = sampleRate
        self.directions = directions
        self.measuredDistance = measuredDistance
        var starts = [Int](repeating: 0, count: directions.count * 2)
        var longest = 0
        for response in starts.indices {
            let ir = irs[(response * irLength)..<((response + 1) * irLength)]
            let peak = ir.reduce(0) { max($0, abs($1)) }
            let onset = ir.firstIndex { abs($0) >= 0.03 * peak } ?? ir.startIndex
            starts[response] = max(0, onset - ir.startIndex - Self.onsetMargin)
            longest = max(longest, irLength - starts[response])
        }
        length = min(longest, maxLength ?? longest)
        taps = .allocate(capacity: directions.count * 2 * length)
        taps.initialize(repeating: 0, count: directions.count * 2 * length)
        onsets = .allocate(capacity: directions.count * 2)
        var latest: Float = 0
        for response in starts.indices {
            let kept = min(length, irLength - starts[response])
            let fadeStart = kept < irLength - starts[response] ? kept - Self.tailFade : kept
            for frame in 0..<kept {
                var value = irs[response * irLength + starts[response] + frame]
                if frame >= fadeStart {
                    let phase = Float(frame - fadeStart + 1) / Float(Self.tailFade + 1)
                    value *= 0.5 * (1 + cos(Float.pi * phase))
                }
                taps[response * length + frame] = value
            }
            let extra = delays.count == 2 ? delays[response % 2] : (delays.count == starts.count ? delays[response] : 0)
            onsets[response] = Float(starts[response]) + max(0, extra)
            latest = max(latest, onsets[response])
        }
        maxOnset = latest + Float(Self.maxAlignment)
        rings = HRIRRings(directions: directions)
        alignments = .allocate(capacity: directions.count * 2)
        alignments.initialize(repeating: 0, count: directions.count * 2)
        let front = nearestDirection(azimuthDeg: 0, elevationDeg: 0)
        for response in 0..<(directions.count * 2) {
            alignments[response] = lag(response, against: front * 2 + response % 2)
        }
    }

    /// The lag (frames, refined by a parabola) at which response `response` best matches response `template`.
    private func lag(_ response: Int, against template: Int) -> Float {
        let a = taps + response * length, b = taps + template * length
        let lags = -Self.maxAlignment...Self.maxAlignment
        let values = lags.map { lag -> Float in
            var sum: Float = 0
            for frame in max(0, lag)..<min(length, length + lag) { sum += a[frame] * b[frame - lag] }
            return sum
        }
        let peak = values.indices.max { values[$0] < values[$1] }!
        var offset: Float = 0
        if peak > 0 && peak < values.count - 1 {
            let denominator = values[peak - 1] - 2 * values[peak] + values[peak + 1]
            if denominator < 0 { offset = 0.5 * (values[peak - 1] - values[peak + 1]) / denominator }
        }
        return Float(lags.lowerBound + peak) + min(max(offset, -0.5), 0.5)
    }

    deinit {
        taps.deallocate()
        onsets.deallocate()
        alignments.deallocate()
        rings.deallocate()
    }

    /// The onset delays of direction `index`, frames: (left, right).
    public func onset(direction index: Int) -> (left: Float, right: Float) {
        (onsets[index * 2], onsets[index * 2 + 1])
    }

    /// The trimmed response of direction `index` for `ear` (0 left, 1 right).
    public func response(direction index: Int, ear: Int) -> [Float] {
        Array(UnsafeBufferPointer(start: taps + (index * 2 + ear) * length, count: length))
    }

    /// The index of the measured direction nearest to azimuth `azimuthDeg`, elevation `elevationDeg` (great circle).
    public func nearestDirection(azimuthDeg: Float, elevationDeg: Float) -> Int {
        let target = HRIRRings.unitVector(azimuthDeg: azimuthDeg, elevationDeg: elevationDeg)
        var best = 0
        var bestDot = -Float.infinity
        for (index, direction) in directions.enumerated() {
            let vector = HRIRRings.unitVector(azimuthDeg: direction.azimuthDeg, elevationDeg: direction.elevationDeg)
            let dot = (vector * target).sum()
            if dot > bestDot { (best, bestDot) = (index, dot) }
        }
        return best
    }
}

extension HRIRSet {
    /// The measured directions and weights that interpolate azimuth `azimuthDeg`, elevation `elevationDeg`.
    public func interpolationWeights(azimuthDeg: Float, elevationDeg: Float) -> HRIRWeights {
        rings.weights(azimuthDeg: azimuthDeg, elevationDeg: elevationDeg)
    }
}
