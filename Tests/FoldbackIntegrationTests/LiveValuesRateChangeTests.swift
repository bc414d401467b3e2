// Values set live (OSC) survive the graph rebuild a new sample rate forces (a server back at another rate). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import Foundation
import XCTest

final class LiveValuesRateChangeTests: XCTestCase {
    func testAFaderSetOverOSCKeepsItsValueWhenTheServerComesBackAtAnotherRate() throws {
        let serverName = JACKServerLauncher.uniqueServerName(prefix: "fbrate")
        var server: JACKServerLauncher? = try JACKServerLauncher(serverName: serverName, timeout: 20)
        defer { server?.stop() }
        let folder = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/show.toml", voxGainDB: 0)
        let rig = try LiveControlRig(server: serverName, arguments: [folder + "/show.toml"], testCase: self)
        defer { rig.close() }
        try rig.oscsend("/foldback/strip/vox/gain_db", "f", "-9")
        XCTAssertEqual(decibels(try rig.measuredGain()), -9, accuracy: 0.1, "set over OSC at 48 kHz")

        server?.stop()
        rig.client.close()   // while its server is gone, as libjack needs
        rig.lister.close()
        try rig.waitForLog("waiting for JACK server")
        server = try JACKServerLauncher(serverName: serverName, sampleRate: 44_100, timeout: 20)
        try rig.waitForLog("is back: reopened")
        try rig.rewire(server: serverName)
        XCTAssertEqual(try rig.request("/foldback/strip/vox/gain_db/get"), OSCMessage("/foldback/strip/vox/gain_db", [.float(-9)]))
        XCTAssertEqual(decibels(try rig.measuredGain()), -9, accuracy: 0.1, "the units were re-prepared at 44.1 kHz, the fader kept")
    }
}
