// The `geq` unit's 31 ISO ⅓-octave bands and the gain correction that makes the summed response meet the faders at every centre. Init non-realtime; solve realtime-safe (libm, no allocation).
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The 31-band graphic EQ's bands and their gain correction.
///
/// Bands: ISO 266 / IEC 61260 ⅓-octave centres, nominal 20 Hz … 20 kHz, exact base-10 values
/// 1000 · 10^(n/10) Hz for n = −17 … 13 (19.953 Hz … 19 953 Hz). Each band is a constant-Q cookbook peak
/// (``BiquadDesign``) with Q = 2^(1/6) / (2^(1/3) − 1) ≈ 4.318, a ⅓-octave bandwidth.
///
/// Correction: neighbouring ⅓-octave bells overlap, so setting band gains equal to the faders would give a
/// summed response that overshoots (all bands at +12 dB reach about +20 dB). Instead the band gains are
/// solved so that the response at each centre equals that centre's fader (after Välimäki & Liski's
/// accurate cascade graphic EQ, 2017): an interaction matrix B (the dB response at every centre of each
/// band set to a prototype gain of 12 dB, per dB) is inverted once at setup; on a fader move the gains
/// g = B⁻¹·t for the fader targets t are refined by ``iterations`` Newton-like steps
/// g ← g + B⁻¹·(t − r(g)), where r(g) is the exact digital response at the centres (cramping near
/// Nyquist included). Gains are clamped to ±24 dB (``EQBand/gainRange``); settings that would need more
/// (±15 dB alternating band by band) are met as nearly as the clamp allows. Bands above 0.49 × the sample
/// rate are left out (disabled).
public struct GraphicEQDesign: ~Copyable {
    /// The number of bands.
    public static let bandCount = 31
    /// The Q of every band: a ⅓-octave bandwidth.
    public static let q = exp2(1.0 / 6) / (exp2(1.0 / 3) - 1)
    /// The range of a fader, in dB.
    public static let faderRange: ClosedRange<Double> = -15...15
    /// The band gain per dB of the interaction matrix's prototype.
    static let prototypeGainDB = 12.0
    /// Refinement steps after the linear solve.
    public static let iterations = 4

    /// Each band's exact centre frequency in Hz: 1000 · 10^(n/10), n = −17 … 13.
    public static let centres: [Double] = (0..<bandCount).map { 1000 * pow(10, Double($0 - 17) / 10) }
    /// Each band's nominal frequency as written on a graphic EQ's panel.
    public static let nominalNames = [
        "20", "25", "31.5", "40", "50", "63", "80", "100", "125", "160", "200", "250", "315", "400", "500", "630",
        "800", "1k", "1.25k", "1.6k", "2k", "2.5k", "3.15k", "4k", "5k", "6.3k", "8k", "10k", "12.5k", "16k", "20k",
    ]
    /// Each band's preset key: `g` and the nominal frequency with `k` standing for the thousands point
    /// (`g1k25`, `g2k5`) and `_` for the decimal point below 1 kHz (`g31_5`).
    public static let keys = [
        "g20", "g25", "g31_5", "g40", "g50", "g63", "g80", "g100", "g125", "g160", "g200", "g250", "g315", "g400",
        "g500", "g630", "g800", "g1k", "g1k25", "g1k6", "g2k", "g2k5", "g3k15", "g4k", "g5k", "g6k3", "g8k", "g10k",
        "g12k5", "g16k", "g20k",
    ]

    /// The bands that run at this rate (centres up to 0.49 × the rate): the first ``activeBands``.
    public let activeBands: Int
    /// sin²(ω/2) at each centre; per (centre i, band j): (φⱼ − φᵢ)² and αⱼ² φᵢ(1 − φᵢ), row-major.
    private let stationary: UnsafeMutablePointer<Double>
    private let bandwidth: UnsafeMutablePointer<Double>
    private let inverse: UnsafeMutablePointer<Double>
    private let response: UnsafeMutablePointer<Double>
    private let error: UnsafeMutablePointer<Double>

    /// The design at `sampleRate` Hz. Allocates and inverts the interaction matrix; call off the audio thread.
    public init(sampleRate: Double) {
        let top = EQBand.maximumFrequency(sampleRate: sampleRate)
        let active = Self.centres.prefix { $0 <= top }.count
        activeBands = active
        let count = max(1, active * active)
        stationary = .allocate(capacity: count)
        bandwidth = .allocate(capacity: count)
        inverse = .allocate(capacity: count)
        response = .allocate(capacity: Self.bandCount)
        error = .allocate(capacity: Self.bandCount)
        response.initialize(repeating: 0, count: Self.bandCount)
        error.initialize(repeating: 0, count: Self.bandCount)
        let phi = Self.centres.map { sin(Double.pi * $0 / sampleRate) * sin(Double.pi * $0 / sampleRate) }
        for centre in 0..<active {
            for band in 0..<active {
                let alpha = sin(2 * Double.pi * Self.centres[band] / sampleRate) / (2 * Self.q)
                let difference = phi[band] - phi[centre]
                (stationary + centre * active + band).initialize(to: difference * difference)
                (bandwidth + centre * active + band).initialize(to: alpha * alpha * phi[centre] * (1 - phi[centre]))
            }
        }
        var matrix = [Double](repeating: 0, count: active * active)
        let power = pow(10, Self.prototypeGainDB / 20)
        for index in 0..<(active * active) {
            let k = stationary[index], m = bandwidth[index]
            matrix[index] = 10 * log10((k + m * power) / (k + m / power)) / Self.prototypeGainDB
        }
        let inverted = Self.inverted(matrix, size: active)
        inverse.initialize(from: inverted, count: active * active)
    }

    deinit {
        stationary.deallocate()
        bandwidth.deallocate()
        inverse.deallocate()
        response.deallocate()
        error.deallocate()
    }

    /// Writes the band gains (dB) for the fader settings `faders` (dB, ``bandCount`` values) into `gains`
    /// (``bandCount`` values; bands past ``activeBands`` get 0). Realtime-safe: no allocation; ``iterations`` + 1 passes of 31 × 31 multiply-adds and
    /// 31 × 31 rational terms with 62 `pow`/`log10` calls per pass.
    public func solve(faders: UnsafePointer<Double>, gains: UnsafeMutablePointer<Double>) {
        let active = activeBands
        for band in 0..<Self.bandCount { gains[band] = 0 }
        for index in 0..<active { error[index] = faders[index] }
        applyInverse(adding: gains)
        for _ in 0..<Self.iterations {
            responseDB(gains: UnsafePointer(gains), into: response)
            for index in 0..<active { error[index] = faders[index] - response[index] }
            applyInverse(adding: gains)
        }
    }

    /// The summed response (dB) of the bands at `gains` at each active centre, into `result`.
    public func responseDB(gains: UnsafePointer<Double>, into result: UnsafeMutablePointer<Double>) {
        let active = activeBands
        for centre in 0..<active { result[centre] = 1 }
        for band in 0..<active {
            let power = pow(10, gains[band] / 20)
            let inversePower = 1 / power
            for centre in 0..<active {
                let index = centre * active + band
                let k = stationary[index], m = bandwidth[index]
                result[centre] *= (k + m * power) / (k + m * inversePower)
            }
        }
        for centre in 0..<active { result[centre] = 10 * log10(result[centre]) }
    }

    /// gains += B⁻¹ · error, each clamped to ``EQBand/gainRange``.
    private func applyInverse(adding gains: UnsafeMutablePointer<Double>) {
        let active = activeBands
        for band in 0..<active {
            var sum = 0.0
            let row = inverse + band * active
            for centre in 0..<active { sum += row[centre] * error[centre] }
            gains[band] = min(max(gains[band] + sum, EQBand.gainRange.lowerBound), EQBand.gainRange.upperBound)
        }
    }

    /// The corrected band gains for `faders` (dB, ``bandCount`` values; missing ones are 0). Non-realtime.
    public func gains(faders: [Double]) -> [Double] {
        var targets = (0..<Self.bandCount).map { $0 < faders.count ? faders[$0] : 0 }
        var result = [Double](repeating: 0, count: Self.bandCount)
        targets.withUnsafeMutableBufferPointer { faders in
            result.withUnsafeMutableBufferPointer { solve(faders: faders.baseAddress!, gains: $0.baseAddress!) }
        }
        return result
    }

    /// The 31 peak bands with `gains` (dB), bands past ``activeBands`` disabled: what the kernel runs and
    /// ``EQResponse`` plots.
    public func bands(gains: [Double]) -> [EQBand] {
        (0..<Self.bandCount).map { index in
            EQBand(type: .peak, frequency: Self.centres[index], gainDB: index < gains.count ? gains[index] : 0,
                   q: Self.q, isEnabled: index < activeBands)
        }
    }

    /// The inverse of the `size`×`size` row-major `matrix` by Gauss–Jordan elimination with partial pivoting.
    /// The interaction matrix is diagonally dominant (a band's bell is down to about a fifth of its gain at
    /// the neighbouring centres), so it is always invertible.
    static func inverted(_ matrix: [Double], size: Int) -> [Double] {
        var a = matrix
        var result = [Double](repeating: 0, count: size * size)
        for index in 0..<size { result[index * size + index] = 1 }
        for column in 0..<size {
            var pivot = column
            for row in column..<size where abs(a[row * size + column]) > abs(a[pivot * size + column]) { pivot = row }
            if pivot != column {
                for k in 0..<size {
                    a.swapAt(column * size + k, pivot * size + k)
                    result.swapAt(column * size + k, pivot * size + k)
                }
            }
            let scale = 1 / a[column * size + column]
            for k in 0..<size {
                a[column * size + k] *= scale
                result[column * size + k] *= scale
            }
            for row in 0..<size where row != column {
                let factor = a[row * size + column]
                if factor == 0 { continue }
                for k in 0..<size {
                    a[row * size + k] -= factor * a[column * size + k]
                    result[row * size + k] -= factor * result[column * size + k]
                }
            }
        }
        return result
    }
}
