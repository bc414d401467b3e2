// The `geq` unit: its bands and keys, its measured response against its own design, the correction that meets the faders, flatness and click-free moves.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import Foundation
import XCTest

final class GraphicEQTests: XCTestCase {
    /// A wedge being rung out: deep narrow cuts, a few boosts, both ends of the range, an output trim.
    private let ringingOut: [String: Float] = [
        "g20": -15, "g63": 6, "g250": -9, "g315": -12, "g400": 4, "g1k": 15, "g1k25": -15, "g2k5": -6, "g3k15": -6,
        "g8k": 3, "g16k": -10, "g20k": 12, "gain_db": -3,
    ]

    private func impulse(_ length: Int) -> [Float] {
        var signal = [Float](repeating: 0, count: length)
        signal[0] = 1
        return signal
    }

    /// The impulse response of a `geq` with `values`, run through the unit's process function.
    private func impulseResponse(_ values: [String: Float], sampleRate: Double, length: Int, blockSize: Int = 1024) throws -> [Float] {
        let driver = try UnitSlotDriver(GraphicEQUnit(values: values), channels: 1, sampleRate: sampleRate)
        return driver.render([impulse(length)], blockSize: blockSize)[0]
    }

    /// The unit's own design: its corrected bands, as the kernel settles on them.
    private func designedBands(_ values: [String: Float], sampleRate: Double) -> [EQBand] {
        let design = GraphicEQDesign(sampleRate: sampleRate)
        return design.bands(gains: design.gains(faders: GraphicEQDesign.keys.map { Double(values[$0] ?? 0) }))
    }

    /// |H(f)| in dB of `response` at `frequency` (the DTFT of the impulse response, evaluated directly).
    private func gainDB(of response: [Float], at frequency: Double, sampleRate: Double) -> Double {
        let omega = 2 * Double.pi * frequency / sampleRate
        var (real, imaginary) = (0.0, 0.0)
        for (index, sample) in response.enumerated() where sample != 0 {
            real += Double(sample) * cos(omega * Double(index))
            imaginary -= Double(sample) * sin(omega * Double(index))
        }
        return 10 * log10(real * real + imaginary * imaginary)
    }

    func testThirtyOneBandsKeyedByNominalFrequency() {
        XCTAssertEqual(GraphicEQDesign.keys.count, 31)
        XCTAssertEqual(GraphicEQDesign.keys.first, "g20")
        XCTAssertEqual(GraphicEQDesign.keys.last, "g20k")
        XCTAssertEqual(Set(GraphicEQDesign.keys).count, 31)
        for key in ["g25", "g31_5", "g1k", "g1k25", "g2k5", "g3k15", "g12k5"] { XCTAssertTrue(GraphicEQDesign.keys.contains(key), key) }
        XCTAssertEqual(GraphicEQDesign.centres[17], 1000, accuracy: 1e-9, "g1k is exactly 1 kHz")
        for (name, centre) in zip(GraphicEQDesign.nominalNames, GraphicEQDesign.centres) {
            let nominal = name.hasSuffix("k") ? Double(name.dropLast())! * 1000 : Double(name)!
            XCTAssertEqual(centre / nominal, 1, accuracy: 0.03, "\(name): exact base-10 centre \(centre) Hz")
        }
        for (lower, upper) in zip(GraphicEQDesign.centres, GraphicEQDesign.centres.dropFirst()) {
            XCTAssertEqual(log2(upper / lower), 1.0 / 3, accuracy: 0.005, "a third of an octave apart (base 10: 10^0.1)")
        }
        XCTAssertEqual(GraphicEQDesign.q, 4.318, accuracy: 0.001)
        let unit = GraphicEQUnit(values: ["g2k5": -6])
        XCTAssertEqual(unit.parameters.map(\.key), ["gain_db"] + GraphicEQDesign.keys)
        XCTAssertEqual(unit.parameters[22].defaultValue, -6, "g2k5 is parameter 22")
        XCTAssertEqual(unit.parameters[1].range, -15...15)
    }

    func testMeasuredResponseMatchesTheDesignAt44100() throws { try checkMeasuredAgainstDesign(sampleRate: 44100, length: 65536) }
    func testMeasuredResponseMatchesTheDesignAt48000() throws { try checkMeasuredAgainstDesign(sampleRate: 48000, length: 65536) }
    func testMeasuredResponseMatchesTheDesignAt96000() throws { try checkMeasuredAgainstDesign(sampleRate: 96000, length: 131_072) }

    /// Every FFT bin from 20 Hz to 0.45 fs of the unit's impulse response against ``EQResponse`` of its
    /// corrected bands: within 0.1 dB (the 20 Hz band's tail is below −170 dB by the end of the response).
    private func checkMeasuredAgainstDesign(sampleRate: Double, length: Int) throws {
        let spectrum = EQMeasurement.magnitudeSpectrum(try impulseResponse(ringingOut, sampleRate: sampleRate, length: length, blockSize: 253))
        let binWidth = sampleRate / Double(length)
        let bins = Array(Int((20 / binWidth).rounded(.up))...Int(0.45 * sampleRate / binWidth))
        let analytic = EQResponse.magnitudeDB(bands: designedBands(ringingOut, sampleRate: sampleRate), sampleRate: sampleRate,
                                              frequencies: bins.map { Double($0) * binWidth }, outputGainDB: -3)
        var worst = (error: 0.0, frequency: 0.0)
        for (bin, expected) in zip(bins, analytic) {
            let error = abs(20 * log10(spectrum[bin]) - expected)
            if error > worst.error { worst = (error, Double(bin) * binWidth) }
        }
        XCTAssertLessThan(worst.error, 0.1, "worst \(worst.error) dB at \(worst.frequency) Hz, \(sampleRate) Hz")
        print("geq measured vs design at \(Int(sampleRate)) Hz: worst \(String(format: "%.2e", worst.error)) dB at \(Int(worst.frequency)) Hz")
    }

    /// Measured through the unit (65 536-sample impulse responses: shorter ones truncate the 20 Hz band's
    /// ring and read 0.1 dB low).
    func testOneBandAloneMeetsItsFaderAtItsCentreAndLeavesTheOtherCentresAlone() throws {
        let sampleRate = 48000.0
        var worstOwn = 0.0, worstOthers = 0.0
        for (index, key) in GraphicEQDesign.keys.enumerated() {
            for fader: Float in [15, -12] {
                let response = try impulseResponse([key: fader], sampleRate: sampleRate, length: 65536)
                let own = gainDB(of: response, at: GraphicEQDesign.centres[index], sampleRate: sampleRate)
                worstOwn = max(worstOwn, abs(own - Double(fader)))
                for neighbour in [index - 1, index + 1] where GraphicEQDesign.centres.indices.contains(neighbour) {
                    let other = gainDB(of: response, at: GraphicEQDesign.centres[neighbour], sampleRate: sampleRate)
                    worstOthers = max(worstOthers, abs(other))
                }
            }
        }
        XCTAssertLessThan(worstOwn, 0.01, "a lone band at +15 or −12 dB reaches its fader within 0.01 dB at its centre")
        XCTAssertLessThan(worstOthers, 0.01, "and leaves the neighbouring centres at 0 dB within 0.01 dB")
        print("geq lone band: worst error at its centre \(String(format: "%.3f", worstOwn)) dB, at the neighbours' \(String(format: "%.3f", worstOthers)) dB")
    }

    func testTheCorrectionMeetsTheFadersAtEveryCentre() {
        for sampleRate in [44100.0, 48000.0, 96000.0] {
            let design = GraphicEQDesign(sampleRate: sampleRate)
            let settings: [(String, [Double])] = [
                ("all +12", Array(repeating: 12, count: 31)),
                ("all −15", Array(repeating: -15, count: 31)),
                ("zigzag ±6", (0..<31).map { $0.isMultiple(of: 2) ? 6 : -6 }),
                ("ringing out", GraphicEQDesign.keys.map { Double(ringingOut[$0] ?? 0) }),
            ]
            for (label, faders) in settings {
                let bands = design.bands(gains: design.gains(faders: faders))
                let response = EQResponse.magnitudeDB(bands: bands, sampleRate: sampleRate, frequencies: GraphicEQDesign.centres)
                let worst = zip(response, faders).map { abs($0 - $1) }.max()!
                XCTAssertLessThan(worst, 0.1, "\(label) at \(sampleRate) Hz: worst \(worst) dB off a fader at its centre")
                let uncorrected = EQResponse.magnitudeDB(bands: design.bands(gains: faders), sampleRate: sampleRate,
                                                         frequencies: GraphicEQDesign.centres)
                let before = zip(uncorrected, faders).map { abs($0 - $1) }.max()!
                print("geq \(label) at \(Int(sampleRate)) Hz: worst centre error \(String(format: "%.3f", worst)) dB corrected, \(String(format: "%.2f", before)) dB with band gain = fader")
            }
        }
    }

    func testBandsAboveTheRateAreLeftOut() throws {
        let design = GraphicEQDesign(sampleRate: 32000)
        XCTAssertEqual(design.activeBands, 29, "16 kHz and 20 kHz are above 0.49 × 32 kHz")
        let faders = GraphicEQDesign.keys.map { Double(ringingOut[$0] ?? 0) }
        let bands = design.bands(gains: design.gains(faders: faders))
        XCTAssertFalse(bands[29].isEnabled || bands[30].isEnabled)
        let response = EQResponse.magnitudeDB(bands: bands, sampleRate: 32000, frequencies: Array(GraphicEQDesign.centres.prefix(29)))
        XCTAssertLessThan(zip(response, faders).map { abs($0 - $1) }.max()!, 0.01, "the other 29 centres still meet their faders")
        let driver = try UnitSlotDriver(GraphicEQUnit(values: ringingOut), channels: 1, sampleRate: 32000)
        driver.set(31, 9)     // g20k: accepted, changes nothing
        XCTAssertTrue(driver.render([impulse(4096)], blockSize: 64)[0].allSatisfy(\.isFinite))
    }

    func testAllFadersAtZeroIsFlat() throws {
        for sampleRate in [44100.0, 96000.0] {
            let spectrum = EQMeasurement.magnitudeSpectrum(try impulseResponse([:], sampleRate: sampleRate, length: 16384))
            let worst = spectrum.dropFirst().map { abs(20 * log10($0)) }.max()!
            XCTAssertLessThan(worst, 0.01, "flat within 0.01 dB at \(sampleRate) Hz (worst \(worst) dB)")
        }
    }

    func testResponseIsTheSameAtEveryBlockSize() throws {
        let reference = try impulseResponse(ringingOut, sampleRate: 48000, length: 8192, blockSize: 1024)
        for blockSize in [1, 7, 253] {
            XCTAssertEqual(try impulseResponse(ringingOut, sampleRate: 48000, length: 8192, blockSize: blockSize), reference, "block \(blockSize)")
        }
    }

    func testAFaderMoveGlidesWithoutAClick() throws {
        let sampleRate = 48000.0
        let driver = try UnitSlotDriver(GraphicEQUnit(values: [:]), channels: 2, sampleRate: sampleRate)
        let sine = EQMeasurement.sine(frequency: 1000, sampleRate: sampleRate, frames: 19200, amplitude: 0.25)
        var moved = false
        let output = driver.render([sine, sine], blockSize: 7) { start in
            guard !moved && start >= 4800 else { return }
            moved = true
            driver.set(18, 15)      // g1k to +15 dB
            driver.set(19, -15)     // g1k25 to −15 dB
        }
        let gain = EQMeasurement.rmsDB(output[0][14400...]) - EQMeasurement.rmsDB(sine[14400...])
        XCTAssertEqual(gain, 15, accuracy: 0.1, "the 1 kHz fader's value at its centre once the glide is over")
        XCTAssertEqual(output[0], output[1], "stereo lanes identical")
        let settledStep = EQMeasurement.largestStep(Array(output[0][14400...]))
        let step = EQMeasurement.largestStep(Array(output[0][4800..<7200]))
        XCTAssertLessThanOrEqual(step, settledStep * 1.05, "no step during the 20 ms glide beyond the +15 dB sine's own")
    }
}
