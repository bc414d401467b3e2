// OSC /foldback/preset/save writes the running chain: values set live and each LV2 plugin's state. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
@testable import FoldbackLV2
import FoldbackPresets
import FoldbackGraph
import Foundation
import XCTest

final class PresetSaveTests: JACKServerTestCase {
    func testSaveWritesLiveValuesAndPluginStateThatReloadAsTheyPlayed() throws {
        let folder = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/show.toml", voxGainDB: 0, extra: """
              [[strip.unit]]
              type = "lv2"
              id = "amp"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              controls = { gain = 0 }
            """)
        let rig = try LiveControlRig(server: serverName, arguments: [folder + "/show.toml"], testCase: self)
        defer { rig.close() }
        try rig.oscsend("/foldback/strip/vox/unit/amp/gain", "f", "-6")
        try rig.oscsend("/foldback/strip/vox/gain_db", "f", "-3")
        XCTAssertEqual(decibels(try rig.measuredGain()), -9, accuracy: 0.1, "fader −3 dB and the plugin's −6 dB")

        let saved = folder + "/saved.toml"
        let reply = try XCTUnwrap(try rig.request("/foldback/preset/save", [.string(saved)]))
        XCTAssertEqual(reply.path, "/foldback/preset/saved", "\(reply)")
        let preset = try PresetLoader.load(path: saved)
        XCTAssertEqual(preset.strips[0].gainDB, -3, accuracy: 1e-6)
        let unit = try XCTUnwrap(preset.strips[0].units.first)
        XCTAssertEqual(unit.parameters["gain"] ?? .nan, -6, accuracy: 1e-6, "the live control value")
        let stateFile = try XCTUnwrap(unit.lv2?.stateFile)
        XCTAssertTrue(stateFile.hasPrefix(folder + "/saved.plugin-state/"), stateFile)
        // In this process (offline hosting), where the instance's control can be read.
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256, hosting: .offline)
        let amp = try XCTUnwrap(graph.description.strips[0].units.first as? LV2Unit)
        XCTAssertEqual(try XCTUnwrap(amp.controlValue("gain")), -6, accuracy: 1e-6, "the saved preset plays as it was playing")
    }

    func testFileRequestsAreRefusedOutsideThePresetsFolderAndAllowDirFolders() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let allowed = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/show.toml", voxGainDB: 0)
        let rig = try LiveControlRig(server: serverName, arguments: [folder + "/show.toml", "--allow-dir", allowed], testCase: self)
        defer { rig.close() }
        try rig.oscsend("/foldback/strip/vox/gain_db", "f", "-4")

        let elsewhere = "/tmp/elsewhere-\(UUID().uuidString).toml"
        let outsider = try LiveControlRig.temporaryFolder() + "/outsider.toml"
        try LiveControlRig.writePreset(to: outsider, voxGainDB: -20)
        for (address, path, reason) in [
            ("/foldback/preset/save", elsewhere, "is outside the folders control requests may use (\(folder), \(allowed))"),
            ("/foldback/preset/save", "../escape.toml", "is outside the folders"),
            ("/foldback/preset/save", folder + "/notes.txt", "is not a .toml file"),
            ("/foldback/midi/save", elsewhere, "is outside the folders"),
            ("/foldback/preset/load", outsider, "is outside the folders"),
        ] {
            let reply = try XCTUnwrap(try rig.request(address, [.string(path)]))
            XCTAssertEqual(reply.path, OSCServer.errorPath, "\(address) \(path): \(reply)")
            XCTAssertEqual(reply.arguments.first?.text, address)
            XCTAssertTrue(reply.arguments.last?.text?.contains(reason) == true, "\(reply) should say \(reason)")
            try rig.waitForLog("foldback: OSC \(address) refused: '\(path)'")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: elsewhere), "nothing written outside")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/../escape.toml"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/notes.txt"))
        XCTAssertEqual(try rig.request("/foldback/preset/get"), OSCMessage("/foldback/preset", [.string("vox 0.0 dB"), .string(folder + "/show.toml")]),
                       "the outside preset was not loaded")

        for (path, written) in [("saved.toml", folder + "/saved.toml"), (allowed + "/extra.toml", allowed + "/extra.toml")] {
            let reply = try XCTUnwrap(try rig.request("/foldback/preset/save", [.string(path)]))
            XCTAssertEqual(reply.path, "/foldback/preset/saved", "\(reply)")
            XCTAssertEqual(reply.arguments.first?.text, written, "a relative path is taken from the preset's folder")
            XCTAssertEqual(try PresetLoader.load(path: written).strips[0].gainDB, -4, accuracy: 1e-6, "the live fader in \(written)")
        }
        let loaded = try XCTUnwrap(try rig.request("/foldback/preset/load", [.string(allowed + "/extra.toml")]))
        XCTAssertEqual(loaded.path, "/foldback/preset/loaded", "a preset in an --allow-dir folder loads: \(loaded)")
    }
}
