// Programme for the false-alarm tests: espeak-ng speech, a held organ-like chord, a flute-like note with slow vibrato, a sine sweep. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

enum ProgrammeSources {
    /// Speech from espeak-ng at 22.05 kHz, or nil when espeak-ng is not installed.
    static func espeakSpeech() throws -> [Float]? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
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
        return samples
    }

    /// `speech` (22.05 kHz) looped and played at `sampleRate` (linear interpolation), scaled by `gain`.
    static func speech(_ speech: [Float], sampleRate: Double, gain: Float = 0.1) -> (Int) -> Float {
        { frame in
            let position = Double(frame) * 22050 / sampleRate
            let index = Int(position)
            let fraction = Float(position - Double(index))
            return gain * (speech[index % speech.count] * (1 - fraction) + speech[(index + 1) % speech.count] * fraction)
        }
    }

    /// A held organ-like chord: three notes with drawbar harmonics (1, 2, 3, 4, 6, 8), each chord held 10 s
    /// (C, F, G, Am in turn) with a 50 ms swell, peak about `level` dBFS.
    static func organ(sampleRate: Double, level: Double = -24) -> (Int) -> Float {
        let chords: [[Double]] = [[60, 64, 67], [65, 69, 72], [67, 71, 74], [69, 72, 76]]
        let amplitude = pow(10, level / 20) / 9
        return { frame in
            let time = Double(frame) / sampleRate
            let index = Int(time / 10)
            let local = time - 10 * Double(index)
            let swell = min(local / 0.05, 1) * min((10 - local) / 0.05, 1)
            var sum = 0.0
            for note in chords[index % chords.count] {
                let frequency = 440 * exp2((note - 69) / 12)
                for (harmonic, weight) in [(1.0, 1.0), (2, 0.7), (3, 0.5), (4, 0.4), (6, 0.25), (8, 0.15)] {
                    sum += weight * sin(2 * Double.pi * harmonic * frequency * time)
                }
            }
            return Float(amplitude * swell * sum)
        }
    }

    /// A flute-like note: nearly a sine (2nd harmonic −14 dB, 3rd −24 dB) with slow vibrato (4 Hz, ±15 cents) and
    /// a little breath noise; 4 s notes walking up a scale from 523 Hz, 150 ms attack; `level` dBFS peak.
    static func flute(sampleRate: Double, level: Double = -24) -> (Int) -> Float {
        let steps: [Double] = [0, 2, 4, 5, 7, 9, 11, 12]
        let amplitude = pow(10, level / 20)
        return { frame in
            let time = Double(frame) / sampleRate
            let index = Int(time / 4)
            let local = time - 4 * Double(index)
            let frequency = 523.25 * exp2(steps[index % steps.count] / 12)
            let depth = 0.15 / 12 * log(2.0)
            let phase = 2 * Double.pi * frequency * (local + depth / (2 * Double.pi * 4) * (1 - cos(2 * Double.pi * 4 * local)))
            let envelope = min(local / 0.15, 1) * min((4 - local) / 0.1, 1)
            let hashed = (UInt64(frame) &+ 0x2545_F491) &* 6_364_136_223_846_793_005
            let breath = Double(Int64(bitPattern: hashed ^ (hashed >> 29))) / Double(Int64.max) * 0.01
            let tone = sin(phase) + 0.2 * sin(2 * phase) + 0.06 * sin(3 * phase)
            return Float(amplitude * envelope * (tone + breath))
        }
    }

    /// A measurement sweep: logarithmic, 20 Hz to 20 kHz in 10 s (faded in and out over 50 ms), then 1 s of
    /// silence, repeated; `level` dBFS.
    static func sweep(sampleRate: Double, level: Double = -24) -> (Int) -> Float {
        let amplitude = pow(10, level / 20)
        let (start, length) = (20.0, 10.0)
        let rate = log(1000.0) / length
        return { frame in
            let time = (Double(frame) / sampleRate).truncatingRemainder(dividingBy: length + 1)
            guard time < length else { return 0 }
            let phase = 2 * Double.pi * start * (exp(rate * time) - 1) / rate
            let fade = min(time / 0.05, 1) * min((length - time) / 0.05, 1)
            return Float(amplitude * fade * sin(phase))
        }
    }
}
