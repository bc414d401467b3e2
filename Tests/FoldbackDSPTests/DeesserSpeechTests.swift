// The `deesser` on real speech: espeak-ng speaks a sibilant sentence to a file; its sibilant frames' 5–9 kHz band is pulled down while its vowels keep their level.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import Foundation
import XCTest

final class DeesserSpeechTests: XCTestCase {
    /// The mono 16-bit WAV espeak-ng writes for `text`, as samples and its rate.
    private func speak(_ text: String) throws -> (samples: [Float], sampleRate: Double) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-deess-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-w", file.path, text]
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        XCTAssertFalse(process.isRunning, "espeak-ng finished")
        let data = try Data(contentsOf: file)
        func word(_ offset: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(data[offset + $1]) << (8 * $1) } }
        var offset = 12, sampleRate = 0.0
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<(offset + 4)], as: UTF8.self), size = word(offset + 4, 4)
            if id == "fmt " { sampleRate = Double(word(offset + 12, 4)) }
            if id == "data" {
                let end = min(data.count, offset + 8 + size)
                let samples = stride(from: offset + 8, to: end - 1, by: 2).map { Float(Int16(truncatingIfNeeded: word($0, 2))) / 32768 }
                return (samples, sampleRate)
            }
            offset += 8 + size + (size & 1)
        }
        throw XCTSkip("no data chunk in espeak-ng's output")
    }

    /// "Sister Suzy sees six shiny seashells…" (espeak-ng, 22.05 kHz) through 7 kHz, Q 0.7, −45 dBFS, range
    /// 18 dB: in the 20 ms frames where the 5–9 kHz band carries 4× the energy below 2.5 kHz (sibilants) that
    /// band comes out ≥ 6 dB lower; in the frames where below 2.5 kHz carries 10× the band's (vowels) the level
    /// changes by less than 0.5 dB.
    func testSibilantsInSpeechAreReducedWhileVowelsKeepTheirLevel() throws {
        let (speech, sampleRate) = try speak("Sister Suzy sees six shiny seashells; so so slow, the sea is so still")
        XCTAssertEqual(sampleRate, 22050)
        let settings = DeesserParameters(frequency: 7000, q: 0.7, threshold: -45, range: 18)
        let output = try UnitSlotDriver(DeesserUnit(settings: settings), channels: 1, sampleRate: sampleRate).render([speech], blockSize: 256)[0]
        func band(_ signal: [Float]) -> [Float] {
            var result = signal
            for (type, frequency) in [(EQBandType.highPass, 5000.0), (.lowPass, 9000)] {
                for q in [0.5412, 1.3066] {
                    result = DeesserKernelTests.filter(result, BiquadDesign.section(type, omega: 2 * Double.pi * frequency / sampleRate, gainDB: 0, q: q))
                }
            }
            return result
        }
        func low(_ signal: [Float]) -> [Float] {
            var result = signal
            for q in [0.5412, 1.3066] {
                result = DeesserKernelTests.filter(result, BiquadDesign.section(.lowPass, omega: 2 * Double.pi * 2500 / sampleRate, gainDB: 0, q: q))
            }
            return result
        }
        func energies(_ signal: [Float], _ length: Int) -> [Double] {
            stride(from: 0, to: signal.count - length + 1, by: length).map { start in
                signal[start..<(start + length)].reduce(0.0) { $0 + Double($1) * Double($1) }
            }
        }
        let length = Int(0.02 * sampleRate)
        let inBand = energies(band(speech), length), inLow = energies(low(speech), length), inAll = energies(speech, length)
        let outBand = energies(band(output), length), outAll = energies(output, length)
        let sibilant = inBand.indices.filter { inBand[$0] > 4 * inLow[$0] && inBand[$0] > 1e-5 * Double(length) }
        let vowel = inBand.indices.filter { inLow[$0] > 10 * inBand[$0] && inLow[$0] > 1e-4 * Double(length) }
        XCTAssertGreaterThan(sibilant.count, 10)
        XCTAssertGreaterThan(vowel.count, 50)
        let reduction = 10 * log10(sibilant.reduce(0.0) { $0 + inBand[$1] } / sibilant.reduce(0.0) { $0 + outBand[$1] })
        let change = 10 * log10(vowel.reduce(0.0) { $0 + outAll[$1] } / vowel.reduce(0.0) { $0 + inAll[$1] })
        XCTAssertGreaterThanOrEqual(reduction, 6, "sibilant frames' 5–9 kHz band")
        XCTAssertLessThan(abs(change), 0.5, "vowel frames' level")
        print("deesser on espeak-ng speech: \(sibilant.count) sibilant frames −\(String(format: "%.2f", reduction)) dB in 5–9 kHz, \(vowel.count) vowel frames \(String(format: "%+.3f", change)) dB")
    }
}
