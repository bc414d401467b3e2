// `foldback run --start-server net`'s options: refused combinations (exit 2), help, and the slave's channels from a preset (no JACK needed). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLive
import FoldbackPresets
import XCTest

final class NetSlaveOptionsTests: XCTestCase {
    func testNetNeedsAMasterAndAMasterNeedsNet() throws {
        let noMaster = try FoldbackProcess.run(["run", "presets/passthrough.toml", "--start-server", "net"])
        XCTAssertEqual(noMaster.status, 2, noMaster.standardError)
        XCTAssertTrue(noMaster.standardError.contains("--start-server net needs --master ADDR"), noMaster.standardError)
        let noNet = try FoldbackProcess.run(["run", "presets/passthrough.toml", "--master", "127.0.0.1"])
        XCTAssertEqual(noNet.status, 2, noNet.standardError)
        XCTAssertTrue(noNet.standardError.contains("--master needs --start-server net"), noNet.standardError)
        let latency = try FoldbackProcess.run(["run", "presets/passthrough.toml", "--start-server", "net", "--master", "127.0.0.1", "--net-latency", "0"])
        XCTAssertEqual(latency.status, 2, latency.standardError)
        XCTAssertTrue(latency.standardError.contains("--net-latency must be between 1 and 30 cycles (got 0)"), latency.standardError)
    }

    func testHelpTeachesTheNetSlave() throws {
        let run = try FoldbackProcess.run(["run", "--help-hidden"])
        for expected in ["--start-server <dummy|net>", "--master <ADDR>", "--net-latency <CYCLES>", "--net-name <NAME>", "--net-port", "docs/network.md"] {
            XCTAssertTrue(run.standardOutput.contains(expected), "help mentions \(expected)")
        }
    }

    /// One capture channel per strip input channel, one playback channel per bus output channel, more when a
    /// connect list names a higher system port; file-source strips and effect buses have no ports.
    func testTheSlaveHasAChannelPerStripInputAndBusOutput() throws {
        let path = try FoldbackProcess.temporaryPreset("""
            [[bus]]
            name = "iem"
            channels = 2
            connect = ["system:playback_1", "system:playback_2"]

            [[strip]]
            name = "vox"
            send = [{ bus = "iem" }]
            connect = ["system:capture_6"]

            [[strip]]
            name = "keys"
            channels = 2
            send = [{ bus = "iem" }]
            """, name: "net.toml")
        let preset = try PresetLoader.load(path: path)
        var settings = NetSlaveSettings()
        settings.masterAddress = "127.0.0.1"
        let slave = settings.slave(for: preset, clientName: "monitors")
        XCTAssertEqual(slave.captureChannels, 6, "system:capture_6 is named")
        XCTAssertEqual(slave.playbackChannels, 2)
        XCTAssertEqual(slave.driverArguments, ["-a", "127.0.0.1", "-p", "19000", "-C", "6", "-P", "2", "-l", "2", "-n", "monitors"])
        XCTAssertEqual(settings.slave(for: nil, clientName: "x").captureChannels, 1, "no preset: one channel each way")
    }
}
