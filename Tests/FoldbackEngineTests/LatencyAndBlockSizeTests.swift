// Zero added latency at every block size (including cycles longer than maxFrames) and block-size-independent output.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class LatencyAndBlockSizeTests: XCTestCase {
    /// A mono strip with a gain unit and a −6.0206 dB fader into a stereo bus at pan −1 (left = 0.5 × input).
    private func impulseGraph() -> GraphDescription {
        TestGraph.single(stripChannels: 1, busChannels: 2, gainDB: -6.0206, pan: -1, units: [GainUnit(gainDB: 0)])
    }

    /// Renders cycles of `blockSize` frames, each with one impulse at a different frame, and checks that every
    /// impulse comes out at the same frame of the same cycle.
    private func assertImpulsesAreNotDelayed(
        blockSize: Int, engineMaxFrames: Int, graphMaxFrames: Int, sampleRate: Double = 48000,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let host = OfflineEngine(maxFrames: engineMaxFrames, inputs: 1, outputs: 2)
        try host.install(impulseGraph(), sampleRate: sampleRate, graphMaxFrames: graphMaxFrames)
        let cycles = max(6, 2048 / blockSize)
        var input = [Float](repeating: 0, count: blockSize * cycles)
        var positions: [Int] = []
        for cycle in 0..<cycles {
            // First, last, middle and odd positions inside the cycle.
            let within = [0, blockSize - 1, blockSize / 2, (cycle * 37) % blockSize][cycle % 4]
            positions.append(cycle * blockSize + within)
            input[cycle * blockSize + within] = 1
        }
        let output = host.render([input], blockSize: blockSize)
        assertFullyWritten(output, file: file, line: line)
        for position in positions {
            XCTAssertEqual(output[0][position], 0.5, accuracy: 1e-6,
                           "block \(blockSize), engine max \(engineMaxFrames), graph max \(graphMaxFrames): impulse at frame \(position) missing",
                           file: file, line: line)
        }
        let stray = output[0].indices.filter { output[0][$0] != 0 && !positions.contains($0) }
        XCTAssertEqual(stray, [], "energy at frames without an impulse (delay or smear)", file: file, line: line)
        XCTAssertTrue(output[1].allSatisfy { $0 == 0 }, file: file, line: line)
    }

    func testImpulseComesOutAtTheSameFrameOfTheSameCycleAtAwkwardBlockSizes() throws {
        for blockSize in [1, 7, 253, 1024] {
            try assertImpulsesAreNotDelayed(blockSize: blockSize, engineMaxFrames: 1024, graphMaxFrames: 1024)
        }
    }

    func testCyclesLongerThanMaxFramesAreChunkedWithoutDelay() throws {
        try assertImpulsesAreNotDelayed(blockSize: 1024, engineMaxFrames: 64, graphMaxFrames: 64)
        try assertImpulsesAreNotDelayed(blockSize: 1000, engineMaxFrames: 64, graphMaxFrames: 1024, sampleRate: 44100)
        try assertImpulsesAreNotDelayed(blockSize: 1024, engineMaxFrames: 1024, graphMaxFrames: 100, sampleRate: 96000)
        try assertImpulsesAreNotDelayed(blockSize: 253, engineMaxFrames: 7, graphMaxFrames: 1, sampleRate: 44100)
    }

    func testGraphReportsZeroLatency() throws {
        let graph = try EngineGraph(impulseGraph(), sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual(graph.layout.latencyFrames, 0)
    }

    /// A graph exercising every mixer path: mono and stereo strips, units, pans, pre/post sends, two buses.
    private func busyGraph() -> GraphDescription {
        GraphDescription(
            strips: [
                StripDescription(name: "vox", channels: 1, units: [GainUnit(gainDB: 4), GainUnit(gainDB: -2, isInverted: true)],
                                 sends: [SendDescription(bus: 0, gainDB: -3), SendDescription(bus: 1, gainDB: -9, isPreFader: true)],
                                 gainDB: -5, pan: 0.3),
                StripDescription(name: "keys", channels: 2, units: [GainUnit(gainDB: -1)],
                                 sends: [SendDescription(bus: 0), SendDescription(bus: 1, gainDB: -4)], gainDB: 2, pan: -0.4),
            ],
            buses: [BusDescription(name: "wedge", channels: 2, gainDB: -1.5), BusDescription(name: "ears", channels: 1, gainDB: 3)])
    }

    func testOutputIsIdenticalWhateverTheBlockSize() throws {
        for sampleRate in [44100.0, 48000, 96000] {
            let frames = 5000
            let inputs = [
                TestSignal.sine(frames: frames, frequency: 331, sampleRate: sampleRate),
                TestSignal.noise(frames: frames, seed: 21),
                TestSignal.noise(frames: frames, seed: 42),
            ]
            var reference: [[Float]]?
            for (blockSize, engineMaxFrames) in [(1024, 1024), (1, 1024), (7, 1024), (253, 1024), (1024, 64), (1000, 253)] {
                let host = OfflineEngine(maxFrames: engineMaxFrames, inputs: 3, outputs: 3)
                try host.install(busyGraph(), sampleRate: sampleRate, graphMaxFrames: engineMaxFrames)
                let output = host.render(inputs, blockSize: blockSize)
                assertFullyWritten(output)
                if let reference {
                    for channel in 0..<3 {
                        assertSignalsEqual(output[channel], reference[channel], tolerance: 1e-6,
                                           "output \(channel), block \(blockSize) vs 1024, chunk \(engineMaxFrames), \(sampleRate) Hz")
                    }
                } else {
                    reference = output
                    XCTAssertGreaterThan(output[0].map(abs).max()!, 0.1, "the reference is not silence")
                }
            }
        }
    }

    func testRampsAreBlockSizeIndependentWhenStartedAtTheSameFrame() throws {
        // A change made before the first cycle starts at frame 0 whatever the block size; the ramp must not
        // depend on how the cycles (or chunks) are cut.
        let frames = 3000
        let input = TestSignal.dc(frames: frames)
        var reference: [Float]?
        for (blockSize, engineMaxFrames) in [(1024, 1024), (1, 1024), (7, 1024), (253, 64)] {
            let host = OfflineEngine(maxFrames: engineMaxFrames, inputs: 1, outputs: 1)
            try host.install(TestGraph.single(), sampleRate: 48000, graphMaxFrames: engineMaxFrames)
            try host.engine.set(.stripGain(strip: 0), to: -12)
            try host.engine.set(.busGain(bus: 0), to: 6)
            let output = host.render([input], blockSize: blockSize)[0]
            if let reference {
                assertSignalsEqual(output, reference, tolerance: 1e-6, "block \(blockSize), chunk \(engineMaxFrames)")
            } else {
                reference = output
            }
        }
    }
}
