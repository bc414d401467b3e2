import FoldbackDSP
@testable import FoldbackFeedback
import XCTest

final class DebugProbeTests: XCTestCase {
    func testProbe() throws {
        let sampleRate = 96_000.0
        let room = RoomModel()
        let msg = room.maximumStableGain(sampleRate: sampleRate).gainDB
        let unit = FeedbackUnit(runsWorker: false)
        let stage = try SimulatedStage(room: room, sampleRate: sampleRate, unit: nil, maxFrames: 64)
        let out = stage.run(frames: Int(4 * sampleRate), blockSize: 64, source: StageMeasurements.roomNoise(sampleRate: sampleRate),
                            loopGainDB: { $0 < 96000 ? msg - 6 : msg + 6 })
        let analyzer = SpectrumAnalyzer(size: 8192)!
        var detector = HowlDetector(binCount: 4097, binWidth: sampleRate / 8192)
        for hop in stride(from: 96000 - 8192, to: 96000 + 30000, by: 512) {
            let levels = Array(out[hop..<hop + 8192]).withUnsafeBufferPointer { analyzer.powerSpectrumDB($0) }
            let rings = detector.analyze(levels)
            let top = (0..<levels.count).sorted { levels[$0] > levels[$1] }.prefix(3)
            print(Double(hop + 8192) / sampleRate, detector.averageDB, top.map { "\(Double($0) * sampleRate / 8192) Hz \(levels[$0]) pn \(detector.peakToNeighbour(levels, at: Double($0) * sampleRate / 8192))" }, rings)
        }
        var line = ""
        for k in 0..<80 { line += String(format: "%.0f ", StageMeasurements.levelDB(out, k * 2400..<(k + 1) * 2400)) }
        print(line)
        // spectrum of the last 0.5 s via the analyzer
        let spectrum = SpectrumAnalyzer(size: 16384)!
        let tail = Array(out[(out.count - 16384)...])
        let levels = tail.withUnsafeBufferPointer { spectrum.powerSpectrumDB($0) }
        let top = (0..<levels.count).sorted { levels[$0] > levels[$1] }.prefix(8)
        print(top.map { "\(Double($0) * sampleRate / 16384) Hz \(levels[$0])" })
        print(unit.events.map { "\(Int($0.notch.frequency)) Hz \($0.notch.depthDB) dB Q\($0.notch.q) @\($0.time)" })
    }
}
