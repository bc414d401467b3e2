// The analyser's spectrum: a tone's peak on the FFT line and in its ⅓-octave band, pink noise reading flat, and the live monitor's update rate through a real engine tap. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackAnalysis
import FoldbackDSP
import FoldbackEngine
import Foundation
import XCTest

final class SpectrumAnalysisTests: XCTestCase {
    /// Appends `samples` in `block`-frame pieces as the worker does, analysing after each; returns every frame.
    private func analyse(_ samples: [Float], rate: Double, block: Int, from start: Int = 0) throws -> [SpectrumFrame] {
        let analysis = try XCTUnwrap(SpectrumAnalysis(sampleRate: rate))
        var frames: [SpectrumFrame] = []
        var done = 0
        while done < samples.count {
            let count = min(block, samples.count - done)
            samples.withUnsafeBufferPointer { analysis.append(interleaved: $0.baseAddress! + done, channels: 1, frames: count) }
            done += count
            if done >= start { frames.append(analysis.analyse(source: "bus/test", elapsed: Double(count) / rate)) }
        }
        return frames
    }

    /// A −12 dBFS 2.5 kHz sine: the line's interpolated peak lands at 2.5 kHz within 1 % (measured: well under
    /// 0.1 %), its level within 0.5 dB of −12 dBFS, and the loudest ⅓-octave bar is the 2.5 kHz band (2512 Hz
    /// exact), within 0.5 dB of −12 dBFS; at 44.1, 48 and 96 kHz and blocks of 7, 1,024 and 2,400 frames.
    func testToneLandsInItsBandAndOnTheLine() throws {
        let bandIndex = try XCTUnwrap(SpectrumAnalysis.bandCentres.firstIndex { abs($0 - 2_511.886) < 0.01 })
        for (rate, block) in [(48_000.0, 2_400), (44_100.0, 1_024), (96_000.0, 7)] {
            let amplitude = Float(pow(10, -12.0 / 20))
            let samples = (0..<Int(rate / 2)).map { amplitude * Float(sin(2 * Double.pi * 2_500 * Double($0) / rate)) }
            let frame = try XCTUnwrap(analyse(samples, rate: rate, block: block).last)
            let error = abs(frame.peakHz - 2_500) / 2_500
            print("analyser: \(Int(rate)) Hz: peak \(String(format: "%.2f", frame.peakHz)) Hz (error \(String(format: "%.4f", error * 100)) %), "
                + "\(frame.peakDB) dBFS; 2.5 kHz band \(frame.bands[bandIndex]) dBFS")
            XCTAssertLessThan(error, 0.01, "\(rate) Hz")
            XCTAssertEqual(frame.peakDB, -12, accuracy: 1.5, "\(rate) Hz: the bin's level (Hann scalloping ≤ 1.42 dB)")
            XCTAssertEqual(frame.bands.indices.max { frame.bands[$0] < frame.bands[$1] }, bandIndex, "\(rate) Hz")
            XCTAssertEqual(frame.bands[bandIndex], -12, accuracy: 0.5, "\(rate) Hz")
            let lineFrequency = SpectrumAnalysis.lineFrequencies[frame.line.indices.max { frame.line[$0] < frame.line[$1] }!]
            XCTAssertEqual(lineFrequency, 2_500, accuracy: 2_500 * 0.03, "\(rate) Hz: the line's loudest point")
            XCTAssertEqual(frame.hold, frame.line.indices.map { max(frame.line[$0], frame.hold[$0]) }, "\(rate) Hz: the hold is never below the line")
        }
    }

    /// Pink noise (Paul Kellet's refined filter, ±0.05 dB from 9 Hz to Nyquist) averaged over 20 s reads flat:
    /// every ⅓-octave bar from 20 Hz to 20 kHz within ±1.5 dB of their mean.
    func testPinkNoiseReadsFlat() throws {
        let rate = 48_000.0
        var generator = SeededGenerator(seed: 24)
        var b = [Double](repeating: 0, count: 7)
        let samples: [Float] = (0..<Int(20 * rate)).map { _ in
            let white = Double.random(in: -1...1, using: &generator)
            b[0] = 0.99886 * b[0] + white * 0.0555179; b[1] = 0.99332 * b[1] + white * 0.0750759
            b[2] = 0.96900 * b[2] + white * 0.1538520; b[3] = 0.86650 * b[3] + white * 0.3104856
            b[4] = 0.55000 * b[4] + white * 0.5329522; b[5] = -0.7616 * b[5] - white * 0.0168980
            let pink = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + white * 0.5362
            b[6] = white * 0.115926
            return Float(pink * 0.05)
        }
        let frames = try analyse(samples, rate: rate, block: 2_400, from: 16_384)
        var powers = [Double](repeating: 0, count: SpectrumAnalysis.bandCentres.count)
        for frame in frames { for (band, level) in frame.bands.enumerated() { powers[band] += pow(10, Double(level) / 10) } }
        let levels = powers.map { 10 * log10($0 / Double(frames.count)) }
        let mean = levels.reduce(0, +) / Double(levels.count)
        let deviations = levels.map { $0 - mean }
        print("analyser: pink noise over \(frames.count) frames: ⅓-octave bars within "
            + "\(String(format: "%+.2f", deviations.min()!)) … \(String(format: "%+.2f", deviations.max()!)) dB of their mean")
        for (band, deviation) in deviations.enumerated() {
            XCTAssertEqual(deviation, 0, accuracy: 1.5, "band \(SpectrumAnalysis.bandCentres[band]) Hz")
        }
    }

    /// The live monitor on a real engine rendering in realtime (480-frame cycles every 10 ms) with its tap on a
    /// bus: 10 to 25 frames a second reach a listener (measured: about 20), each of the bus's 1 kHz tone; with
    /// nobody interested the tap is off.
    func testMonitorUpdateRate() throws {
        let rate = 48_000.0
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 480))
        let graph = try EngineGraph(
            GraphDescription(strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])],
                             buses: [BusDescription(name: "wedge", channels: 1)]),
            sampleRate: rate, maxFrames: 480)
        let monitor = SpectrumMonitor()
        monitor.attach(to: graph)
        try engine.install(graph, crossfade: .none)
        XCTAssertThrowsError(try monitor.select(.bus("nowhere"), in: graph))
        try monitor.select(.bus("wedge"), in: graph)
        let peaks = Peaks()
        monitor.setListener("test") { peaks.add($0.peakHz) }
        monitor.setInterest("test", true)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: 480), output = UnsafeMutablePointer<Float>.allocate(capacity: 480)
        defer { input.deallocate(); output.deallocate() }
        let start = Date()
        var cycle = 0
        while Date().timeIntervalSince(start) < 3 {
            for frame in 0..<480 { input[frame] = 0.5 * Float(sin(2 * Double.pi * 1_000 * Double(cycle * 480 + frame) / rate)) }
            engine.io.pointee.inputs[0] = UnsafePointer(input)
            engine.io.pointee.outputs[0] = output
            engine.io.pointee.inputCount = 1
            engine.io.pointee.outputCount = 1
            engine.renderCycle(frames: 480)
            cycle += 1
            let due = start.addingTimeInterval(Double(cycle) * 0.01)
            if due > Date() { Thread.sleep(until: due) }
        }
        let seconds = Date().timeIntervalSince(start)
        XCTAssertTrue(monitor.tap.isSelected)
        monitor.setInterest("test", false)
        XCTAssertFalse(monitor.tap.isSelected, "nobody interested: the audio thread copies nothing")
        XCTAssertEqual(monitor.selected, .bus("wedge"), "the selection is kept for the next page")
        let (count, last) = peaks.read()
        let cpu = monitor.workerCPU
        print("analyser: \(count) frames in \(String(format: "%.2f", seconds)) s = \(String(format: "%.1f", Double(count) / seconds))/s, "
            + "worker CPU \(String(format: "%.2f", cpu.seconds / seconds * 100)) % of one core (\(String(format: "%.2f", cpu.seconds / Double(max(cpu.frames, 1)) * 1000)) ms a frame)")
        XCTAssertGreaterThanOrEqual(Double(count) / seconds, 10)
        XCTAssertLessThanOrEqual(Double(count) / seconds, 25)
        XCTAssertEqual(last, 1_000, accuracy: 10)
        monitor.stop()
    }
}

/// Frames a listener saw, from the worker thread.
private final class Peaks: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var last = 0.0

    func add(_ frequency: Double) {
        lock.lock(); defer { lock.unlock() }
        count += 1
        last = frequency
    }

    func read() -> (Int, Double) {
        lock.lock(); defer { lock.unlock() }
        return (count, last)
    }
}
