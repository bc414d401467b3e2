// JACKHost's ports, metadata, names and connections, and alignment at 44.1 kHz with period 1024. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackJACK
import XCTest

final class HostIntegrationTests: JACKServerTestCase {
    override class var sampleRate: Int { 44_100 }
    override class var period: Int { 1_024 }

    private func stageGraph() -> GraphDescription {
        GraphDescription(
            strips: [
                StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 1)], pan: 0.5),
                StripDescription(name: "backing", channels: 2, sends: [SendDescription(bus: 0, gainDB: -6)]),
            ],
            buses: [BusDescription(name: "main", channels: 2), BusDescription(name: "wedge", channels: 1, gainDB: -2)])
    }

    func testPortsAndPrettyNamesFollowTheLayout() throws {
        let rig = try FoldbackRig(serverName: serverName, description: stageGraph())
        defer { rig.close() }
        let observer = try JACKClient(name: "fb-observer", serverName: serverName)
        defer { observer.close() }
        XCTAssertEqual(
            Set(observer.portNames(matching: "^foldback:", direction: .input)),
            ["foldback:vox_in", "foldback:backing_in_L", "foldback:backing_in_R"])
        XCTAssertEqual(
            Set(observer.portNames(matching: "^foldback:", direction: .output)),
            ["foldback:main_L", "foldback:main_R", "foldback:wedge"])
        for port in rig.layout.inputPorts + rig.layout.outputPorts {
            XCTAssertEqual(observer.prettyName(ofPort: "foldback:\(port.name)"), port.prettyName, port.name)
        }
        let listed = try JACKTools.run("jack_property", "-l", server: serverName)
        XCTAssertTrue(listed.contains("vox in"), listed)
        rig.close()
        XCTAssertFalse(try JACKTools.run("jack_property", "-l", server: serverName).contains("vox in"))
    }

    func testSecondHostWithTheSameNameGetsItsOwnPorts() throws {
        let first = try FoldbackRig(serverName: serverName, description: stageGraph())
        defer { first.close() }
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 1_024))
        let graph = try EngineGraph(stageGraph(), sampleRate: Double(Self.sampleRate), maxFrames: 1_024)
        try engine.install(graph)
        let second = try JACKHost(engine: engine, layout: graph.layout, clientName: "foldback", serverName: serverName)
        defer { second.close() }
        XCTAssertEqual(first.host.actualName, "foldback")
        XCTAssertNotEqual(second.actualName, "foldback")
        XCTAssertEqual(second.fullName(ofPort: "vox_in"), "\(second.actualName):vox_in")
    }

    func testMissingConnectTargetsAreWarningsAndTheRestConnect() throws {
        let rig = try FoldbackRig(serverName: serverName, description: stageGraph())
        defer { rig.close() }
        let warnings = rig.host.connect([
            "main_L": ["system:playback_1", "nowhere:in"], "main_R": ["system:playback_2"], "no_such_port": ["system:playback_1"],
        ])
        XCTAssertEqual(warnings.count, 2, "\(warnings)")
        XCTAssertTrue(warnings.contains { "\($0)".contains("nowhere:in") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { "\($0)".contains("no_such_port") }, "\(warnings)")
        XCTAssertTrue(rig.host.client.connections(ofPort: "foldback:main_L").contains("system:playback_1"))
    }

    /// Connections another client makes reach the host's tracker through JACK's port-connect notification,
    /// with no poll (`maintainConnections` is never called here), so one made just before a server dies is
    /// restored after it like any other.
    func testConnectionsOthersMakeAreTrackedWithoutAPoll() throws {
        let rig = try FoldbackRig(serverName: serverName, description: stageGraph())
        defer { rig.close() }
        let observer = try JACKClient(name: "fb-observer", serverName: serverName)
        defer { observer.close() }
        let name = rig.host.actualName
        let expected = Set((rig.layout.inputPorts + rig.layout.outputPorts).flatMap { port in
            observer.connections(ofPort: "\(name):\(port.name)").map { "\(port.name) ↔ \($0)" }
        })
        XCTAssertEqual(expected.count, 6, "the rig's player feeds three inputs and its recorder takes three outputs")
        try waitFor("the tracker knowing every connection", timeout: 2) { Set(rig.host.trackedConnections.map(\.description)) == expected }
    }

    func testMixAndZeroLatencyAtLongPeriod() throws {
        let rig = try FoldbackRig(serverName: serverName, description: stageGraph())
        defer { rig.close() }
        XCTAssertEqual(rig.host.sampleRate, 44_100)
        XCTAssertEqual(rig.host.bufferSize, 1_024)
        let recording = try rig.record(frames: 6_000)
        let left = cos(1.5 * Double.pi / 4), right = sin(1.5 * Double.pi / 4)
        rig.assertOutput(recording, "main_L") { rig.input(0, $0) * left + rig.input(1, $0) * gain(-6) }
        rig.assertOutput(recording, "main_R") { rig.input(0, $0) * right + rig.input(2, $0) * gain(-6) }
        rig.assertOutput(recording, "wedge") { rig.input(0, $0) * gain(-2) }
        XCTAssertEqual(rig.host.shutdown, nil)
        XCTAssertGreaterThan(rig.host.cycleCount, 0)
    }

    /// A period change reaches the owner's handler off the audio thread; the owner installs a graph
    /// for the new size, and the output stays exact and aligned at the new period.
    func testBufferSizeChangeIsReportedAndAlignmentHolds() throws {
        let changes = FormatLog()
        let rig = try FoldbackRig(serverName: serverName, description: stageGraph()) { rate, size in changes.append(rate, size) }
        defer {
            try? rig.host.client.requestBufferSize(Self.period)
            rig.close()
        }
        try rig.host.client.requestBufferSize(256)
        let change = try changes.wait { $0.bufferSize == 256 }
        XCTAssertEqual(change.sampleRate, 44_100)
        XCTAssertEqual(rig.host.bufferSize, 256)
        try rig.engine.install(try EngineGraph(stageGraph(), sampleRate: change.sampleRate, maxFrames: 256))
        let recording = try rig.probe.record(frames: 4_096, settleFrames: 4_410)
        rig.assertOutput(recording, "wedge") { rig.input(0, $0) * gain(-2) }
    }
}

/// Format changes reported by JACKHost, collected from JACK's notification thread.
private final class FormatLog: @unchecked Sendable {
    private let lock = NSCondition()
    private var entries: [(sampleRate: Double, bufferSize: Int)] = []

    func append(_ sampleRate: Double, _ bufferSize: Int) {
        lock.withLock {
            entries.append((sampleRate, bufferSize))
            lock.broadcast()
        }
    }

    /// Waits (up to 10 s) for an entry matching `condition`.
    func wait(for condition: ((sampleRate: Double, bufferSize: Int)) -> Bool) throws -> (sampleRate: Double, bufferSize: Int) {
        let deadline = Date().addingTimeInterval(10)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let match = entries.first(where: condition) { return match }
            guard lock.wait(until: deadline) else { throw JACKError.timedOut(what: "a format change", seconds: 10) }
        }
    }
}
