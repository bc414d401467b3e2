// An Engine hosted by JACKHost with a player feeding its inputs and a recorder on its outputs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackJACK
import FoldbackJACKTesting
import XCTest

/// Everything an integration test needs around one graph: the engine, its JACK host and the
/// test clients, all wired player → foldback → recorder.
final class FoldbackRig {
    let engine: Engine
    let host: JACKHost
    let probe: JACKTestClient
    let layout: GraphLayout

    /// Builds `description`, installs it, hosts it as `clientName` and wires one noise signal
    /// (distinct seed, −6 dBFS peak) to each input port unless `signals` are given.
    init(
        serverName: String, description: GraphDescription, signals: [TestSignal]? = nil,
        clientName: String = "foldback", maxFrames: Int = 1_024,
        onFormatChange: JACKHost.FormatChangeHandler? = nil
    ) throws {
        let probeClient = try JACKClient(name: "fb-rig-rate", serverName: serverName)
        let sampleRate = probeClient.sampleRate
        probeClient.close()
        engine = Engine(configuration: EngineConfiguration(sampleRate: sampleRate, maxFrames: maxFrames))
        let graph = try EngineGraph(description, sampleRate: sampleRate, maxFrames: maxFrames)
        try engine.install(graph)
        layout = graph.layout
        host = try JACKHost(
            engine: engine, layout: layout, clientName: clientName, serverName: serverName, onFormatChange: onFormatChange)
        try host.activate()
        let inputs = layout.inputPorts.sorted { $0.channel < $1.channel }
        let playSignals = signals ?? inputs.indices.map { .noise(seed: UInt32($0 + 1), level: -6) }
        probe = try JACKTestClient(
            serverName: serverName, signals: playSignals.isEmpty ? [.silence] : playSignals,
            recordChannels: max(1, layout.outputPorts.count), capacity: 16_384, namePrefix: "fb-rig")
        let name = host.actualName
        XCTAssertEqual(probe.connectPlayer(to: inputs.map { "\(name):\($0.name)" }), [])
        let outputs = layout.outputPorts.sorted { $0.channel < $1.channel }
        XCTAssertEqual(probe.connectRecorder(from: outputs.map { "\(name):\($0.name)" }), [])
    }

    deinit { close() }

    /// Records `frames` frames from every output, after a few periods for the connections to settle.
    func record(frames: Int = 4_096) throws -> JACKRecording {
        try probe.record(frames: frames, settleFrames: 4 * host.bufferSize)
    }

    /// What the player fed into input channel `channel` at frame time `time`.
    func input(_ channel: Int, _ time: UInt32) -> Double {
        Double(probe.expectedSample(channel: channel, frameTime: time))
    }

    /// The recorder channel of output port `name`.
    func outputChannel(_ name: String) -> Int {
        layout.outputPorts.sorted { $0.channel < $1.channel }.firstIndex { $0.name == name } ?? -1
    }

    /// Fails unless output port `port` equals `expected(frameTime)` to within `tolerance` at every frame.
    func assertOutput(
        _ recording: JACKRecording, _ port: String, tolerance: Double = 1e-6, file: StaticString = #filePath,
        line: UInt = #line, _ expected: (UInt32) -> Double
    ) {
        let channel = outputChannel(port)
        guard channel >= 0 else { return XCTFail("no output port \(port)", file: file, line: line) }
        let error = SignalCheck.maxError(recording, channel: channel, expected: expected)
        XCTAssertLessThanOrEqual(error, tolerance, "\(port): max error \(error)", file: file, line: line)
    }

    func close() {
        probe.close()
        host.close()
    }
}

/// Linear gain of `db` decibels.
func gain(_ db: Double) -> Double { pow(10, db / 20) }
