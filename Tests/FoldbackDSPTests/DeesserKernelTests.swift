// The `deesser` unit: sibilant bursts pulled down while a sustained vowel is untouched, the reduction it reports, wide and listen, block sizes and rates.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import Foundation
import XCTest

final class DeesserKernelTests: XCTestCase {
    /// A sustained vowel: harmonics of 150 Hz up to 3.9 kHz falling 12 dB an octave, peak about 0.4.
    static func vowel(frames: Int, sampleRate: Double) -> [Float] {
        (0..<frames).map { frame in
            var sum = 0.0
            for harmonic in 1...26 {
                sum += sin(2 * Double.pi * 150 * Double(harmonic) * Double(frame) / sampleRate + Double(harmonic)) / Double(harmonic * harmonic)
            }
            return Float(0.3 * sum)
        }
    }

    /// White noise band-limited to 5…9 kHz (fourth-order Butterworth high- and low-pass), about −20 dBFS RMS.
    static func sibilance(frames: Int, sampleRate: Double, seed: UInt64 = 5) -> [Float] {
        var signal = EQMeasurement.noise(frames: frames, seed: seed, amplitude: 1)
        let q1 = 0.5412, q2 = 1.3066
        for (type, frequency) in [(EQBandType.highPass, 5000.0), (.lowPass, 9000)] {
            for q in [q1, q2] {
                signal = filter(signal, BiquadDesign.section(type, omega: 2 * Double.pi * frequency / sampleRate, gainDB: 0, q: q))
            }
        }
        let rms = pow(10, EQMeasurement.rmsDB(signal[...]) / 20)
        return signal.map { $0 * Float(0.1 / rms) }
    }

    static func filter(_ signal: [Float], _ c: BiquadCoefficients) -> [Float] {
        var z1 = 0.0, z2 = 0.0
        return signal.map { sample in
            let x = Double(sample)
            let y = c.b0 * x + z1
            z1 = c.b1 * x - c.a1 * y + z2
            z2 = c.b2 * x - c.a2 * y
            return Float(y)
        }
    }

    static let setting = DeesserParameters(frequency: 7000, q: 0.7, threshold: -30, range: 15)

    /// At 7 kHz, Q 0.7, −30 dBFS, range 15 dB: 150 ms sibilant bursts (5–9 kHz noise at −20 dBFS RMS) come
    /// out ≥ 6 dB lower, while a sustained vowel changes by less than 0.5 dB (and the reading is 0 dB on
    /// it, 6…15 dB on a burst), at 44.1, 48 and 96 kHz.
    func testSibilantBurstsAreReducedWhileAVowelIsLeftAlone() throws {
        for sampleRate in [44100.0, 48000.0, 96000.0] {
            let burstFrames = Int(0.15 * sampleRate), settle = Int(0.01 * sampleRate)
            let bursts = Self.sibilance(frames: burstFrames, sampleRate: sampleRate)
            let deesser = DeesserUnit(settings: Self.setting)
            let driver = try UnitSlotDriver(deesser, channels: 1, sampleRate: sampleRate)
            let burstOut = driver.render([bursts], blockSize: 256)[0]
            let reduction = EQMeasurement.rmsDB(bursts[settle...]) - EQMeasurement.rmsDB(burstOut[settle...])
            let reading = try XCTUnwrap(deesser.meterReadings().first { $0.key == CompressorUnit.compressionKey }).value
            XCTAssertGreaterThanOrEqual(reduction, 6, "\(sampleRate) Hz")
            XCTAssertTrue((6...15.01).contains(reading), "the reading \(reading) dB")

            let vowel = Self.vowel(frames: Int(sampleRate), sampleRate: sampleRate)
            let vowelDeesser = DeesserUnit(settings: Self.setting)
            let vowelOut = try UnitSlotDriver(vowelDeesser, channels: 1, sampleRate: sampleRate).render([vowel], blockSize: 256)[0]
            let change = EQMeasurement.rmsDB(vowelOut[...]) - EQMeasurement.rmsDB(vowel[...])
            XCTAssertLessThan(abs(change), 0.5)
            XCTAssertEqual(vowelDeesser.meterReadings().first?.value, 0)
            print("deesser at \(Int(sampleRate)) Hz: bursts −\(String(format: "%.2f", reduction)) dB (reading \(String(format: "%.2f", reading)) dB), vowel \(String(format: "%+.3f", change)) dB")
        }
    }

    /// The vowel with a burst on top: split-band leaves the vowel's harmonics (below 4 kHz) within 0.5 dB
    /// during the burst; wide pulls them down with the burst, by the reported reduction within 1 dB.
    func testSplitBandSparesTheVoiceWhereWideDucksIt() throws {
        let sampleRate = 48000.0
        let vowel = Self.vowel(frames: 24000, sampleRate: sampleRate)
        let burst = [Float](repeating: 0, count: 9600) + Self.sibilance(frames: 7200, sampleRate: sampleRate) + [Float](repeating: 0, count: 7200)
        let mixed = zip(vowel, burst).map { $0 + $1 }
        let lowPass = BiquadDesign.section(.lowPass, omega: 2 * Double.pi * 2500 / sampleRate, gainDB: 0, q: 0.7071)
        let during = 10560..<16800
        let reference = EQMeasurement.rmsDB(Self.filter(Self.filter(mixed, lowPass), lowPass)[during])
        for isWide in [false, true] {
            var settings = Self.setting
            settings.isWide = isWide
            let unit = DeesserUnit(settings: settings)
            let output = try UnitSlotDriver(unit, channels: 1, sampleRate: sampleRate).render([mixed], blockSize: 128)[0]
            let voice = EQMeasurement.rmsDB(Self.filter(Self.filter(output, lowPass), lowPass)[during]) - reference
            if isWide {
                XCTAssertLessThan(voice, -6, "wide: the voice goes down with the burst")
            } else {
                XCTAssertEqual(voice, 0, accuracy: 0.5, "split-band: the voice is spared")
            }
            print("deesser \(isWide ? "wide" : "split-band"): voice below 2.5 kHz during a burst \(String(format: "%+.2f", voice)) dB")
        }
    }

    /// `listen` outputs the key: the input through ``DeesserKernel/keySection(_:sampleRate:)``, to 1e-5.
    func testListenOutputsTheKey() throws {
        var settings = Self.setting
        settings.isListening = true
        let input = EQMeasurement.noise(frames: 4800, seed: 9)
        let output = try UnitSlotDriver(DeesserUnit(settings: settings), channels: 1, sampleRate: 48000).render([input], blockSize: 7)[0]
        let key = Self.filter(input, DeesserKernel.keySection(settings, sampleRate: 48000))
        for frame in input.indices { XCTAssertEqual(output[frame], key[frame], accuracy: 1e-5) }
    }

    /// Stereo and linked, any block size gives the same output bit for bit; a dry (never reducing) setting is exact.
    func testBlockSizesAndStereoLink() throws {
        let left = zip(Self.vowel(frames: 20000, sampleRate: 48000), Self.sibilance(frames: 20000, sampleRate: 48000)).map { $0 + $1 }
        let right = Self.vowel(frames: 20000, sampleRate: 48000)
        let reference = try UnitSlotDriver(DeesserUnit(settings: Self.setting), channels: 2, sampleRate: 48000).render([left, right], blockSize: 1024)
        for blockSize in [1, 7, 253] {
            let output = try UnitSlotDriver(DeesserUnit(settings: Self.setting), channels: 2, sampleRate: 48000).render([left, right], blockSize: blockSize)
            XCTAssertEqual(output, reference, "block \(blockSize)")
        }
        XCTAssertLessThan(EQMeasurement.rmsDB(reference[1][...]) - EQMeasurement.rmsDB(right[...]), 0.5, "the right side's vowel is spared (split-band)")
        var open = Self.setting
        open.threshold = 0
        let untouched = try UnitSlotDriver(DeesserUnit(settings: open), channels: 1, sampleRate: 48000).render([right], blockSize: 64)[0]
        XCTAssertEqual(untouched, right, "below the threshold the output is the input")
    }
}
