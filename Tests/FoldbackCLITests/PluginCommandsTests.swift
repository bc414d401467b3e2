// Tests `foldback plugins` and `foldback plugin` against the machine's installed LV2 plugins by running the built executable. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest

final class PluginCommandsTests: XCTestCase {
    func testPluginsListsAndFilters() throws {
        let run = try FoldbackProcess.run(["plugins", "swh-plugins/am"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let amp = run.standardOutput.split(separator: "\n").first { $0.hasPrefix("http://plugin.org.uk/swh-plugins/amp ") }
        let line = try XCTUnwrap(amp, run.standardOutput)
        XCTAssertTrue(line.contains("  1   1  Amplifier Plugin: Simple amplifier"), String(line))
        XCTAssertFalse(run.standardOutput.contains("gareus.org"), "the filter keeps only matches")
    }

    func testPluginShowsPortsRangesLatencyAndPresets() throws {
        let dpl = try FoldbackProcess.run(["plugin", "http://gareus.org/oss/lv2/dpl#mono"])
        XCTAssertEqual(dpl.status, 0, dpl.standardError)
        XCTAssertTrue(dpl.standardOutput.contains("latency:   reported by port"), dpl.standardOutput)
        XCTAssertTrue(dpl.standardOutput.contains("requires:  http://lv2plug.in/ns/ext/urid#map"), dpl.standardOutput)
        let amp = try FoldbackProcess.run(["plugin", "http://plugin.org.uk/swh-plugins/amp"])
        XCTAssertTrue(amp.standardOutput.contains("0  in  control gain  -70…70  default 0  \"Amps gain (dB)\""), amp.standardOutput)
        let detune = try FoldbackProcess.run(["plugin", "http://drobilla.net/plugins/mda/Detune"])
        XCTAssertTrue(detune.standardOutput.contains("  Symphonic  <http://drobilla.net/plugins/mda/presets#Detune-symphonic>"), detune.standardOutput)
    }

    func testUnknownURIExitsTwoWithClosestMatches() throws {
        let run = try FoldbackProcess.run(["plugin", "http://gareus.org/oss/lv2/fil4#mno"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.standardOutput, "")
        XCTAssertTrue(run.standardError.contains("closest installed: http://gareus.org/oss/lv2/fil4#mono"), run.standardError)
    }
}
