// ⅓-octave band levels (IEC 61260 base-10 centres, 20 Hz … 20 kHz) summed from FFT bin powers. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import Foundation

/// Sums an FFT's bin powers into the 31 ⅓-octave bands of the `geq` (IEC 61260 base-10: centres
/// 1000 · 10^(n/10), n = −17 … 13, edges at centre · 10^(±1/20)).
///
/// A bin stands for the frequencies within half a bin of its centre; a bin straddling a band edge gives each
/// band the part of its power that lies inside it, so narrow low bands (less than a bin wide) still read the
/// power density × their width and pink noise reads flat.
package struct ThirdOctaveBands: Sendable {
    /// Each band's exact centre, Hz (the `geq`'s ``GraphicEQDesign/centres``).
    package static let centres = GraphicEQDesign.centres
    /// A band's edge over its centre (and its centre over its lower edge): 10^(1/20).
    package static let edgeRatio = pow(10, 1.0 / 20)

    private struct Band {
        var firstBin: Int
        var weights: [Float]
    }

    private let bands: [Band]

    /// The band table for a transform of `size` frames at `sampleRate` Hz; bands above the Nyquist frequency read nothing.
    package init(size: Int, sampleRate: Double) {
        let binWidth = sampleRate / Double(size), lastBin = size / 2
        bands = Self.centres.map { centre in
            let low = centre / Self.edgeRatio / binWidth, high = min(centre * Self.edgeRatio / binWidth, Double(lastBin) + 0.5)
            guard high > low else { return Band(firstBin: 0, weights: []) }
            let first = max(0, Int((low + 0.5).rounded(.down))), last = min(lastBin, Int((high + 0.5).rounded(.down)))
            let weights = (first...max(first, last)).map { bin in
                Float(max(0, min(high, Double(bin) + 0.5) - max(low, Double(bin) - 0.5)))
            }
            return Band(firstBin: first, weights: weights)
        }
    }

    /// The power in each band from `powers` (one per bin, as ``SpectrumAnalyzer/powerSpectrum(_:)`` gives them),
    /// divided by the window's noise bandwidth so a sine reads its own power in its band; written to `levels`.
    package func powers(from powers: UnsafeBufferPointer<Float>, into levels: inout [Float]) {
        for (index, band) in bands.enumerated() {
            var sum: Float = 0
            for (offset, weight) in band.weights.enumerated() where band.firstBin + offset < powers.count {
                sum += powers[band.firstBin + offset] * weight
            }
            levels[index] = sum / SpectrumAnalyzer.noiseBandwidth
        }
    }
}
