// A measured HRTF set made ready for rendering: minimum-phase HRIRs (as cepstra), their arrivals as pure delays. Non-realtime to build; read-only after.
// SPDX-License-Identifier: GPL-3.0-or-later

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
/// Each measured response is kept as its minimum-phase version (as a folded real cepstrum, ``length`` coefficients,
/// liftered over its second half so the response fits in ``length`` frames) plus a pure delay, its arrival (see
/// `HRIRSet+Preparation.swift`). A direction between measured ones blends its neighbours' cepstra (their
/// log-magnitude spectra) and their arrivals, then ``HRIRSynthesis`` makes the minimum-phase response of the blend:
/// its level at every frequency lies between the neighbours' (geometric interpolation), so interpolation makes no
/// comb-filter notches, and the interaural time difference moves as a pure delay. Nothing before the arrival is
/// computed (but ``preRoll`` frames of the fractional delay's rise), so rendering adds no latency beyond it.
///
/// The storage is allocated once and never changes; ``BinauralSource`` reads it through pointers from the audio
/// thread, so the owner keeps the set alive as long as any source renders with it.
public final class HRIRSet: @unchecked Sendable {
    /// Frames of a response's band-limited (fractional-delay) rise kept before its arrival.
    public static let preRoll = 8
    /// Frames of the raised-cosine fade at a response's end.
    public static let tailFade = 16

    /// The sample rate of the responses, Hz.
    public let sampleRate: Double
    /// Frames per response (after its arrival).
    public let length: Int
    /// The FFT size that makes a response from its cepstrum: the smallest power of two above 2 × ``length``.
    public let transformSize: Int
    /// The measured directions, in the set's order.
    public let directions: [HRIRDirection]
    /// The distance the set was measured at, metres.
    public let measuredDistance: Float
    /// Folded, liftered cepstra: direction-major, left then right, ``length`` coefficients each.
    let cepstra: UnsafeMutablePointer<Float>
    /// Each response's arrival in frames (direction-major, left then right).
    let onsets: UnsafeMutablePointer<Float>
    /// The measured directions grouped into elevation rings (see `HRIRRings.swift`).
    let rings: HRIRRings
    /// The latest arrival, frames.
    public let maxOnset: Float

    /// A set from raw responses `irs` (direction-major, left then right, `irLength` frames each) with extra
    /// per-response delays `delays` in frames (SOFA's `Data.Delay`: one pair for all, or one pair per direction),
    /// each kept for `maxLength` frames after its arrival (nil keeps `irLength`).
    public init(
        sampleRate: Double, irLength: Int, irs: [Float], delays: [Float], directions: [HRIRDirection],
        measuredDistance: Float, maxLength: Int? = nil
    ) {
        precondition(irs.count == directions.count * 2 * irLength && irLength > 0 && !directions.isEmpty)
        self.sampleRate = sampleRate
        self.directions = directions
        self.measuredDistance = measuredDistance
        length = max(Self.tailFade * 2, min(irLength, maxLength ?? irLength))
        var size = 1
        while size <= 2 * length { size *= 2 }
        transformSize = size
        let prepared = HRIRPreparation(length: length, transformSize: size, irLength: irLength, sampleRate: sampleRate)
        let cepstra = UnsafeMutablePointer<Float>.allocate(capacity: directions.count * 2 * length)
        let onsets = UnsafeMutablePointer<Float>.allocate(capacity: directions.count * 2)
        irs.withUnsafeBufferPointer { raw in
            prepared.prepare(irs: raw.baseAddress!, responses: directions.count * 2, cepstra: cepstra, onsets: onsets)
        }
        self.cepstra = cepstra
        self.onsets = onsets
        prepared.deallocate()
        var latest: Float = 0
        for response in 0..<(directions.count * 2) {
            let extra = delays.count == 2 ? delays[response % 2] : (delays.count == directions.count * 2 ? delays[response] : 0)
            onsets[response] = max(0, onsets[response] + max(0, extra))
            latest = max(latest, onsets[response])
        }
        maxOnset = latest
        rings = HRIRRings(directions: directions)
    }

    deinit {
        cepstra.deallocate()
        onsets.deallocate()
        rings.deallocate()
    }

    /// The arrivals of direction `index`, frames: (left, right).
    public func onset(direction index: Int) -> (left: Float, right: Float) {
        (onsets[index * 2], onsets[index * 2 + 1])
    }

    /// The minimum-phase response of direction `index` for `ear` (0 left, 1 right) from its arrival, ``length`` frames.
    public func response(direction index: Int, ear: Int) -> [Float] {
        let synthesis = HRIRSynthesis(length: length, transformSize: transformSize)
        defer { synthesis.deallocate() }
        synthesis.add(cepstra + (index * 2 + ear) * length, weight: 1)
        synthesis.synthesize(fraction: 0, gain: 1)
        return Array(UnsafeBufferPointer(start: synthesis.output + Self.preRoll, count: length))
    }

    /// The filter ``BinauralSource`` renders for direction `index` and `ear` at the set's distance: `taps` from input
    /// frame `start` back (the arrival's whole frames less ``preRoll``; the fraction is in the taps).
    public func renderedFilter(direction index: Int, ear: Int) -> (start: Int, taps: [Float]) {
        let synthesis = HRIRSynthesis(length: length, transformSize: transformSize)
        defer { synthesis.deallocate() }
        let arrival = onsets[index * 2 + ear]
        synthesis.add(cepstra + (index * 2 + ear) * length, weight: 1)
        synthesis.synthesize(fraction: arrival - arrival.rounded(.down), gain: 1)
        return (Int(arrival) - Self.preRoll, Array(UnsafeBufferPointer(start: synthesis.output, count: synthesis.outputLength)))
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
