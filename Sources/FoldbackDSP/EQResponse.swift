// The analytic magnitude response of a set of EQ bands, from the digital coefficients the kernel runs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a set of bands does to each frequency: evaluated from the same ``BiquadDesign`` sections the
/// ``EQKernel`` settles on, so plots and tests show the digital filter, not its analogue prototype.
public enum EQResponse {
    /// The gain of `bands` (disabled ones skipped) plus `outputGainDB` at each of `frequencies` (Hz), in dB.
    /// A frequency where the response is exactly zero (a notch's centre) gives −∞.
    public static func magnitudeDB(
        bands: [EQBand], sampleRate: Double, frequencies: [Double], outputGainDB: Double = 0
    ) -> [Double] {
        let sections = bands.filter(\.isEnabled).flatMap { band -> [BiquadCoefficients] in
            let (first, second) = BiquadDesign.sections(for: band, sampleRate: sampleRate)
            return second.map { [first, $0] } ?? [first]
        }
        return frequencies.map { frequency in
            let omega = 2 * Double.pi * frequency / sampleRate
            let power = sections.reduce(1.0) { $0 * $1.squaredMagnitude(omega: omega) }
            return outputGainDB + 10 * log10(power)
        }
    }

    /// The gain of one set of bands at one frequency, in dB.
    public static func magnitudeDB(bands: [EQBand], sampleRate: Double, frequency: Double) -> Double {
        magnitudeDB(bands: bands, sampleRate: sampleRate, frequencies: [frequency])[0]
    }

    /// The nominal ⅓-octave centre frequencies from 25 Hz to 20 kHz (IEC 61260), with the exact
    /// base-10 centres (1000 · 10^(n/10) Hz) the nominal values stand for.
    public static let thirdOctaveCentres: [(nominal: String, frequency: Double)] = {
        let names = ["25", "31.5", "40", "50", "63", "80", "100", "125", "160", "200", "250", "315", "400", "500", "630",
                     "800", "1k", "1.25k", "1.6k", "2k", "2.5k", "3.15k", "4k", "5k", "6.3k", "8k", "10k", "12.5k", "16k", "20k"]
        return names.enumerated().map { index, name in (name, 1000 * pow(10, Double(index - 16) / 10)) }
    }()

    /// `count` frequencies spaced evenly on a log axis from `low` to `high` Hz, both included.
    public static func logSpacedFrequencies(from low: Double, to high: Double, count: Int) -> [Double] {
        guard count > 1 else { return [low] }
        let ratio = log(high / low)
        return (0..<count).map { low * exp(ratio * Double($0) / Double(count - 1)) }
    }
}
