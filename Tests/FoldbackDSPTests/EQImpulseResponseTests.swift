// The EQ kernel's measured response (FFT of its impulse response) against EQResponse's analytic one, for every band type and rate.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class EQImpulseResponseTests: XCTestCase {
    /// Impulse-response length: at 96 kHz the slowest section here (a 24 dB/oct 60 Hz high-pass) has
    /// decayed by more than 200 dB, so truncation is far below the tolerance.
    private let length = 65_536

    /// Tolerance: 0.05 dB wherever the response is above −60 dB; below that (the skirts of a notch, a
    /// band-pass or a 24 dB/oct filter) the two must agree within 1e-4 in linear amplitude (−80 dB).
    private func assertMeasuredMatchesAnalytic(_ bands: [EQBand], sampleRate: Double, outputGainDB: Double = 0, _ label: String) {
        let spectrum = EQMeasurement.magnitudeSpectrum(EQMeasurement.impulseResponse(bands, sampleRate: sampleRate, length: length, outputGainDB: outputGainDB))
        let binWidth = sampleRate / Double(length)
        let bins = Array(Int((20 / binWidth).rounded(.up))...Int(0.45 * sampleRate / binWidth))
        let analytic = EQResponse.magnitudeDB(bands: bands, sampleRate: sampleRate, frequencies: bins.map { Double($0) * binWidth }, outputGainDB: outputGainDB)
        var worst = (error: 0.0, frequency: 0.0)
        var failures = 0
        for (bin, expectedDB) in zip(bins, analytic) {
            let measured = spectrum[bin]
            let expected = expectedDB.isFinite ? pow(10, expectedDB / 20) : 0
            let error = expectedDB > -60 ? abs(20 * log10(measured) - expectedDB) : 0
            let isWithin = expectedDB > -60 ? error <= 0.05 : abs(measured - expected) <= 1e-4
            if !isWithin { failures += 1 }
            if error > worst.error { worst = (error, Double(bin) * binWidth) }
        }
        XCTAssertEqual(failures, 0, "\(label) at \(sampleRate) Hz: \(failures) of \(bins.count) bins outside tolerance; worst \(worst.error) dB at \(worst.frequency) Hz")
    }

    /// One band of every type, with a second variant where the type has one (cuts, 24 dB/oct, near Nyquist).
    private let bandsByType: [EQBandType: [EQBand]] = [
        .peak: [EQBand(type: .peak, frequency: 1000, gainDB: 6, q: 1.4), EQBand(type: .peak, frequency: 12000, gainDB: -12, q: 4)],
        .lowShelf: [EQBand(type: .lowShelf, frequency: 200, gainDB: 6), EQBand(type: .lowShelf, frequency: 90, gainDB: -10, q: 0.5)],
        .highShelf: [EQBand(type: .highShelf, frequency: 6000, gainDB: -6), EQBand(type: .highShelf, frequency: 10000, gainDB: 4, q: 1)],
        .highPass: [EQBand(type: .highPass, frequency: 80), EQBand(type: .highPass, frequency: 60, slopeDBPerOctave: 24)],
        .lowPass: [EQBand(type: .lowPass, frequency: 8000, q: 2), EQBand(type: .lowPass, frequency: 15000, slopeDBPerOctave: 24)],
        .notch: [EQBand(type: .notch, frequency: 1000, q: 4)],
        .bandPass: [EQBand(type: .bandPass, frequency: 2000, q: 2)],
        .allPass: [EQBand(type: .allPass, frequency: 3000, q: 0.7)],
    ]

    func testEveryBandTypeAt44100() { checkEveryType(sampleRate: 44100) }
    func testEveryBandTypeAt48000() { checkEveryType(sampleRate: 48000) }
    func testEveryBandTypeAt96000() { checkEveryType(sampleRate: 96000) }

    private func checkEveryType(sampleRate: Double) {
        XCTAssertEqual(Set(bandsByType.keys), Set(EQBandType.allCases), "every type is covered")
        for type in EQBandType.allCases {
            for (index, band) in (bandsByType[type] ?? []).enumerated() {
                assertMeasuredMatchesAnalytic([band], sampleRate: sampleRate, "\(type.rawValue) #\(index + 1)")
            }
        }
    }

    func testThirtyTwoBandsInOneKernelMatchTheirCascade() {
        // A 24 dB/oct high-pass and a low-pass frame 30 bells, shelves, narrow notches and all-passes
        // spread from 40 Hz to 16 kHz; one band is disabled.
        let cycle: [EQBandType] = [.peak, .peak, .lowShelf, .highShelf, .notch, .allPass]
        var bands = [EQBand(type: .highPass, frequency: 30, slopeDBPerOctave: 24), EQBand(type: .lowPass, frequency: 18000)]
        for index in 0..<(EQKernel.maximumBands - 2) {
            let type = cycle[index % cycle.count]
            let gain = (index % 2 == 0 ? 1.0 : -1.0) * (1.5 + Double(index % 3) * 1.5)
            bands.append(EQBand(type: type, frequency: 40 * pow(400, Double(index) / 29), gainDB: gain,
                                q: type == .notch ? 8 : 0.7 + Double(index % 4) * 0.5, isEnabled: index != 7))
        }
        XCTAssertEqual(bands.count, 32)
        assertMeasuredMatchesAnalytic(bands, sampleRate: 48000, outputGainDB: -4, "32 bands + output gain")
        assertMeasuredMatchesAnalytic(bands, sampleRate: 96000, "32 bands")
    }
}
