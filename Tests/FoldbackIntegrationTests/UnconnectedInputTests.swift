// An input port without connections reads as silence without asking JACK for its buffer, and reads its signal again from the first recorded frame once connected. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
@testable import FoldbackJACK
import XCTest

/// With jackd2's libjack the process callback asks `jack_port_connected` first and hands the engine an
/// unconnected input as absent (silence, which JACK would have zeroed into the port's buffer): these tests
/// disconnect and reconnect a strip's input on a running show and compare every recorded sample.
final class UnconnectedInputTests: JACKServerTestCase {
    func testADisconnectedInputIsSilenceAndAReconnectedOneIsExactAgain() throws {
        XCTAssertEqual(JACKHostProcess.asksConnections, !PipeWirePresence.isLibjackPipeWires,
                       "jackd2's libjack (1.9.x) is asked for connections; PipeWire's never")
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [
                StripDescription(name: "a", channels: 1, units: [GainUnit(gainDB: -3)], sends: [SendDescription(bus: 0)]),
                StripDescription(name: "b", channels: 1, units: [GainUnit(gainDB: 2)], sends: [SendDescription(bus: 1)]),
            ],
            buses: [BusDescription(name: "out_a", channels: 1), BusDescription(name: "out_b", channels: 1)]))
        defer { rig.close() }
        XCTAssertEqual(rig.host.process.pointee.skipsUnconnectedInputs, JACKHostProcess.asksConnections)
        let player = "\(rig.probe.player.client.actualName):out_2", input = "\(rig.host.actualName):b_in"

        var recording = try rig.record()
        rig.assertOutput(recording, "out_a") { rig.input(0, $0) * gain(-3) }
        rig.assertOutput(recording, "out_b") { rig.input(1, $0) * gain(2) }

        _ = try JACKTools.run("jack_disconnect", player, input, server: serverName)
        recording = try rig.record()
        rig.assertOutput(recording, "out_a") { rig.input(0, $0) * gain(-3) }
        rig.assertOutput(recording, "out_b", tolerance: 0) { _ in 0 }
        XCTAssertEqual(SignalCheck.peak(recording, channel: rig.outputChannel("out_b")), 0, "exact zeros while unconnected")

        _ = try JACKTools.run("jack_connect", player, input, server: serverName)
        recording = try rig.record()
        rig.assertOutput(recording, "out_a") { rig.input(0, $0) * gain(-3) }
        rig.assertOutput(recording, "out_b") { rig.input(1, $0) * gain(2) }
        XCTAssertGreaterThan(SignalCheck.peak(recording, channel: rig.outputChannel("out_b")), 0.05, "the signal flows again")
    }
}
