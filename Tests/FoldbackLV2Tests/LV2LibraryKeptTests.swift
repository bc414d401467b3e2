// A plugin binary stays loaded after its last instance is freed, so preset switches do not map it again each time. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
@testable import FoldbackLV2
import Foundation
import XCTest

final class LV2LibraryKeptTests: XCTestCase {
    /// swh amp instantiated and freed 20 times: its binary is mapped after every free, by the same mappings throughout.
    func testAPluginBinaryStaysMappedAfterItsLastInstance() throws {
        let library = "/amp-swh.lv2/plugin-linux.so"   // wherever LV2_PATH finds swh-lv2
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/usr/lib/lv2" + library), "swh-lv2 is not installed")
        func mappings() -> [String] {
            ((try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasSuffix(library) }.map(String.init)
        }
        var first: [String]?
        for cycle in 0..<20 {
            do {
                let unit = try LV2Unit(uri: "http://plugin.org.uk/swh-plugins/amp", controls: ["gain": 0], hosting: .live)
                let driver = try UnitDriver(unit, channels: 1, maxFrames: 256)
                let output = driver.run([UnitDriver.sine(440, frames: 256)], block: 256)
                XCTAssertEqual(output[0].count, 256)
            }
            let now = mappings()
            XCTAssertFalse(now.isEmpty, "cycle \(cycle): the binary is still mapped once its instance is gone; LV2_PATH \(ProcessInfo.processInfo.environment["LV2_PATH"] ?? "unset")")
            if let first { XCTAssertEqual(now, first, "cycle \(cycle): not mapped again") } else { first = now }
        }
    }
}
