// Music is not feedback: 60 s of voice, chord and noise and a sustained sung note through the unit place no notch deeper than −3 dB. Non-realtime.
import FoldbackDSP
import FoldbackFeedback
import Foundation
import XCTest

final class FalseNotchTests: XCTestCase {
    /// Runs `seconds` of `source` straight through a live unit (no loop) and returns its deepest notch, dB (0 if none).
    private func deepestNotch(_ source: (Int) -> Float, seconds: Double, sampleRate: Double, blockSize: Int) throws -> (Double, [FeedbackEvent]) {
        let unit = FeedbackUnit(runsWorker: false)
        let slot = try unit.prepare(channels: 1, sampleRate: sampleRate, maxFrames: blockSize)
        var input = [Float](repeating: 0, count: blockSize)
        var output = [Float](repeating: 0, count: blockSize)
        var frame = 0
        let total = Int(seconds * sampleRate)
        while frame < total {
            let count = min(blockSize, total - frame)
            for index in 0..<count { input[index] = source(frame + index) }
            input.withUnsafeBufferPointer { inputs in
                output.withUnsafeMutableBufferPointer { outputs in
                    var ins = [inputs.baseAddress!]
                    var outs = [outputs.baseAddress!]
                    slot.functions.process(slot.state, &ins, &outs, Int32(count))
                }
            }
            frame += count
            unit.analyzePending()
        }
        let events = unit.events
        return (events.map(\.notch.depthDB).min() ?? 0, events)
    }

    func testMusicPlacesNoNotches() throws {
        let sampleRate = 48_000.0
        let sources: [(String, (Int) -> Float, Double)] = [
            ("voice", StageMeasurements.source(.voice(level: -6), sampleRate: sampleRate), 60),
            ("chord", StageMeasurements.source(.chord(level: -6), sampleRate: sampleRate), 60),
            ("noise", StageMeasurements.source(.noise(seed: 3, level: -6), sampleRate: sampleRate), 60),
            ("sung note 220 Hz", StageMeasurements.sungNote(sampleRate: sampleRate), 60),
            ("sung note 587 Hz", StageMeasurements.sungNote(sampleRate: sampleRate, frequency: 587), 30),
        ]
        for (name, source, seconds) in sources {
            let (deepest, events) = try deepestNotch(source, seconds: seconds, sampleRate: sampleRate, blockSize: 253)
            print("\(name), \(Int(seconds)) s: deepest notch \(deepest) dB; \(events.count) notch changes",
                  events.prefix(6).map { "\(Int($0.notch.frequency)) Hz @\(fmt($0.time)) s" })
            XCTAssertGreaterThanOrEqual(deepest, -3, name)
        }
    }

    /// Speech from espeak-ng (22.05 kHz), looped to 60 s.
    func testSpeechPlacesNoNotches() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng") else { throw XCTSkip("espeak-ng is not installed") }
        process.arguments = ["--stdout", "-s", "150", "Check one two. The wedge rings at two and a half kilohertz when the singer steps "
                             + "back from the microphone, so we pull the fader down and listen again."]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let bytes = [UInt8](data)
        var offset = 12
        var samples: [Float] = []
        while offset + 8 <= bytes.count {       // walk the RIFF chunks to "data"
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                let end = min(bytes.count, offset + 8 + (size == 0 || size == -1 ? bytes.count : size))
                for index in stride(from: offset + 8, to: end - 1, by: 2) {
                    samples.append(Float(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)) / 32768)
                }
                break
            }
            offset += 8 + (size == -1 ? 0 : size)
        }
        XCTAssertGreaterThan(samples.count, 22050)
        let (deepest, events) = try deepestNotch({ samples[$0 % samples.count] }, seconds: 60, sampleRate: 22050, blockSize: 7)
        print("espeak-ng speech, 60 s at 22.05 kHz: deepest notch \(deepest) dB; \(events.count) notch changes")
        XCTAssertGreaterThanOrEqual(deepest, -3)
    }
}
