// The `[preset] gating` switch: on by default, off with `gating = false`, carried to the engine graph and written back.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackGraph
import FoldbackPresets
import XCTest

final class GatingPresetTests: XCTestCase {
    private func preset(_ info: String) -> String {
        info + "[[bus]]\nname = \"iem\"\n[[strip]]\nname = \"vox\"\n  [[strip.send]]\n  bus = \"iem\"\n"
    }

    func testGatingIsOnUnlessThePresetSwitchesItOff() throws {
        let plain = try PresetLoader.parse(preset(""), path: "on.toml")
        XCTAssertTrue(plain.isGatingEnabled)
        XCTAssertTrue(try PresetGraphBuilder.description(for: plain).isGatingEnabled)
        let off = try PresetLoader.parse(preset("[preset]\ngating = false\n"), path: "off.toml")
        XCTAssertFalse(off.isGatingEnabled)
        XCTAssertFalse(try PresetGraphBuilder.description(for: off).isGatingEnabled)
        let written = PresetWriter.text(for: off)
        XCTAssertTrue(written.contains("gating = false"), written)
        XCTAssertFalse(try PresetLoader.parse(written, path: "again.toml").isGatingEnabled)
        XCTAssertFalse(PresetWriter.text(for: plain).contains("gating"))
    }

    func testANonBooleanGatingIsRefusedWithItsPosition() {
        XCTAssertThrowsError(try PresetLoader.parse(preset("[preset]\ngating = \"yes\"\n"), path: "bad.toml")) { error in
            XCTAssertTrue("\(error)".contains("bad.toml:2:"), "\(error)")
        }
    }
}
