// `binaural = true` and `hrtf` on a bus, `azimuth_deg` / `elevation_deg` / `distance_m` on its sends: decoded, in the
// graph and the parameter tree (instead of pan), saved, and refused with file:line:column where they cannot work.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph
import Foundation

final class BinauralPresetTests: XCTestCase {
    private let text = """
        [[bus]]
        name = "iem"
        binaural = true
        [[strip]]
        name = "keys"
        channels = 2
          [[strip.send]]
          bus = "iem"
          azimuth_deg = 60
          distance_m = 2.5
          width = 0.5
        [[strip]]
        name = "vox"
          [[strip.send]]
          bus = "iem"

        """

    func testPositionsReachTheGraphAndTheTreeInsteadOfPan() throws {
        let preset = try PresetLoader.parse(text, path: "binaural.toml")
        XCTAssertTrue(preset.buses[0].isBinaural)
        XCTAssertNil(preset.buses[0].hrtfPath)
        XCTAssertEqual(preset.strips[0].sends[0].position, BinauralPosition(azimuthDeg: 60, distanceM: 2.5))
        XCTAssertNil(preset.strips[1].sends[0].position)
        let description = try PresetGraphBuilder.description(for: preset, sampleRate: 48000)
        XCTAssertEqual(description.buses[0].hrtf?.sampleRate, 48000, "the Debian KEMAR set by default")
        XCTAssertEqual(description.buses[0].hrtf?.directions.count, 710)
        XCTAssertEqual(description.strips[0].sends[0].position, BinauralPosition(azimuthDeg: 60, distanceM: 2.5))
        XCTAssertNil(try PresetGraphBuilder.description(for: preset).buses[0].hrtf, "a port layout loads no set")
        let tree = ParameterTree(preset: preset)
        XCTAssertEqual(tree.node(at: "strip/keys/send/iem/azimuth_deg")?.address, .sendPosition(strip: 0, send: 0, axis: .azimuth))
        XCTAssertEqual(tree.node(at: "strip/keys/send/iem/azimuth_deg")?.presetValue, 60)
        XCTAssertEqual(tree.node(at: "strip/keys/send/iem/distance_m")?.presetValue, 2.5)
        XCTAssertEqual(tree.node(at: "strip/vox/send/iem/elevation_deg")?.presetValue, 0)
        XCTAssertEqual(tree.node(at: "strip/vox/send/iem/distance_m")?.presetValue, 1)
        XCTAssertEqual(tree.node(at: "strip/vox/send/iem/azimuth_deg")?.descriptor.range, -180...180)
        XCTAssertNil(tree.node(at: "strip/vox/send/iem/pan"), "no pan on a binaural bus")
        XCTAssertNotNil(tree.node(at: "strip/keys/send/iem/width"))
    }

    func testFoldbackCheckShowsTheSetAndEachSendsPlace() throws {
        let report = PresetReport.render(try PresetLoader.parse(text, path: "binaural.toml"))
        XCTAssertTrue(report.contains("Bus 1  iem  (stereo, binaural: Debian KEMAR set)"), report)
        XCTAssertTrue(report.contains("-> iem    0.0 dB  post-fader   at 60° right, elevation 0°, 2.5 m"), report)
        XCTAssertTrue(report.contains("-> iem    0.0 dB  post-fader   at 0° (front), elevation 0°, 1 m"), report)
    }

    func testMovedPositionsAreSavedAndReadBack() throws {
        let preset = try PresetLoader.parse(text, path: "binaural.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 64)
        let (saved, skipped) = preset.applying([.sendPosition(strip: 1, send: 0, axis: .azimuth): -135], graph: graph)
        XCTAssertEqual(skipped, [])
        let again = try PresetLoader.parse(PresetWriter.text(for: saved), path: "again.toml")
        XCTAssertTrue(again.buses[0].isBinaural)
        XCTAssertEqual(again.strips[0].sends[0].position, BinauralPosition(azimuthDeg: 60, distanceM: 2.5))
        XCTAssertEqual(again.strips[1].sends[0].position, BinauralPosition(azimuthDeg: -135))
    }

    func testAMonoBinauralBusIsAnError() {
        assertSingleError(
            "[[bus]]\nname = \"wedge\"\nchannels = 1\nbinaural = true\n[[strip]]\nname = \"s\"\n", line: 4, column: 1,
            contains: ["bus 'wedge' has 1 channel(s); a binaural bus is stereo"])
    }

    func testHRTFWithoutBinauralIsAnError() {
        assertSingleError(
            "[[bus]]\nname = \"iem\"\nhrtf = \"/usr/share/libmysofa/default.sofa\"\n[[strip]]\nname = \"s\"\n", line: 3, column: 1, contains: ["add binaural = true to bus 'iem'"])
    }

    /// A position on a send into a bus that is not binaural would do nothing: the load says so at the key, as it does for
    /// a pan into a mono bus.
    func testAPositionIntoABusThatIsNotBinauralIsAWarningAtItsKey() throws {
        let preset = try PresetLoader.parse(
            "[[bus]]\nname = \"main\"\n[[strip]]\nname = \"vox\"\nsend = [{ bus = \"main\", azimuth_deg = 30.0 }]\n", path: "test.toml")
        XCTAssertEqual(preset.warnings.count, 1, "\(preset.warnings)")
        let warning = preset.warnings.first.map { "\($0)" } ?? ""
        XCTAssertTrue(warning.contains("test.toml:5:") && warning.contains("'azimuth_deg' on a send into bus 'main', which is not binaural"), warning)
    }

    func testAnAzimuthOutOfRangeIsAnError() {
        let wrong = text.replacingOccurrences(of: "azimuth_deg = 60", with: "azimuth_deg = 270")
        let errors = diagnostics(of: wrong).filter { $0.severity == .error }
        XCTAssertEqual(errors.count, 1)
        XCTAssertTrue(errors.first.map { "\($0)".contains("test.toml:9:") && "\($0)".contains("azimuth_deg") } ?? false, "\(errors)")
    }

    /// A missing SOFA file is an error of the preset itself (foldback check shows it), at the `hrtf` value.
    func testAMissingSOFAFileIsAnErrorAtItsLineAndColumn() {
        let missing = text.replacingOccurrences(of: "binaural = true", with: "binaural = true\nhrtf = \"heads/nobody.sofa\"")
        let errors = diagnostics(of: missing, path: "/show/binaural.toml").filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.description), [
            "/show/binaural.toml:4:8: error: bus 'iem': HRTF file 'heads/nobody.sofa' cannot be read (/show/heads/nobody.sofa)",
        ])
    }

    /// A file that is there but is no SOFA file: the preset parses, building its graph fails at the `hrtf` value
    /// naming the file and libmysofa's reason.
    func testAnUnreadableSOFAFileIsRefusedAtItsLineAndColumn() throws {
        let folder = NSTemporaryDirectory() + "binaural-preset-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder + "/heads", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("not HDF5\n".utf8).write(to: URL(fileURLWithPath: folder + "/heads/nobody.sofa"))
        let broken = text.replacingOccurrences(of: "binaural = true", with: "binaural = true\nhrtf = \"heads/nobody.sofa\"")
        let preset = try PresetLoader.parse(broken, path: folder + "/binaural.toml")
        XCTAssertThrowsError(try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 64)) { error in
            XCTAssertEqual(
                "\(error)",
                "\(folder)/binaural.toml:4:8: error: bus 'iem': \(folder)/heads/nobody.sofa: cannot use as an HRTF set: not a SOFA (HDF5) file")
        }
    }
}
