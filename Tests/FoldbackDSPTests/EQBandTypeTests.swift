// The EQ kernel's live band-type change: fade out, switch, fade in; an off band switches at once; reset takes a waiting type; a 24 dB/oct filter gets its second section.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class EQBandTypeTests: XCTestCase {
    private let rate = 48000.0

    func testATypeChangeFadesThroughAndLandsOnTheNewResponse() {
        var kernel = EQKernel(bands: [EQBand(type: .peak, frequency: 1000, gainDB: 9, q: 1)], channels: 2, sampleRate: rate)
        kernel.setType(.lowShelf, band: 0)
        XCTAssertEqual(kernel.band(0).type, .lowShelf, "the band reports where it is heading")
        XCTAssertEqual(kernel.currentBand(0).type, .peak, "and filters with the old shape until it has faded out")
        let input = EQMeasurement.sine(frequency: 200, sampleRate: rate, frames: 9600)
        let output = EQMeasurement.render(&kernel, [input, input], blockSize: 7)
        XCTAssertTrue(kernel.isSettled)
        XCTAssertEqual(kernel.currentBand(0).type, .lowShelf)
        let expected = EQResponse.magnitudeDB(bands: [EQBand(type: .lowShelf, frequency: 1000, gainDB: 9, q: 1)], sampleRate: rate, frequency: 200)
        for channel in output {
            XCTAssertEqual(EQMeasurement.rmsDB(channel[4800...]) - EQMeasurement.rmsDB(input[4800...]), expected, accuracy: 0.05)
            // The bound: a +9 dB copy of the input (the loudest either shape makes a 200 Hz tone), plus 10 %.
            XCTAssertLessThan(EQMeasurement.largestStep(channel), EQMeasurement.largestStep(input) * 2.82 * 1.1)
        }
    }

    func testAnOffBandSwitchesAtOnceAndResetTakesAWaitingType() {
        var kernel = EQKernel(bands: [EQBand(type: .peak, frequency: 1000, gainDB: 6, isEnabled: false),
                                      EQBand(type: .notch, frequency: 500)], channels: 1, sampleRate: rate)
        kernel.setType(.highPass, band: 0)
        XCTAssertEqual(kernel.currentBand(0).type, .highPass)
        kernel.setType(.peak, band: 1)
        kernel.setType(.notch, band: 1)   // back before it faded out: nothing waits
        XCTAssertEqual(kernel.band(1).type, .notch)
        kernel.setType(.lowPass, band: 1)
        kernel.reset()
        XCTAssertEqual(kernel.currentBand(1).type, .lowPass)
        XCTAssertTrue(kernel.isSettled)
        kernel.setType(.allPass, band: 7)   // no such band: ignored
    }

    func testAPassFilterOfTwentyFourDBPerOctaveGetsBothSections() {
        var kernel = EQKernel(bands: [EQBand(type: .highPass, frequency: 1000, slopeDBPerOctave: 24)], channels: 1, sampleRate: rate)
        kernel.setType(.peak, band: 0)
        kernel.setType(.lowPass, band: 0)
        let input = EQMeasurement.sine(frequency: 4000, sampleRate: rate, frames: 9600)
        let output = EQMeasurement.render(&kernel, [input], blockSize: 256)[0]
        let band = EQBand(type: .lowPass, frequency: 1000, slopeDBPerOctave: 24)
        XCTAssertEqual(EQMeasurement.rmsDB(output[4800...]) - EQMeasurement.rmsDB(input[4800...]),
                       EQResponse.magnitudeDB(bands: [band], sampleRate: rate, frequency: 4000), accuracy: 0.05)
    }
}
