// A plugin binary stays loaded after its last instance is freed, so preset switches do not map it again each time. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
@testable import FoldbackLV2
import Foundation
import XCTest

final class LV2LibraryKeptTests: XCTestCase {
    /// swh amp instantiated and freed 20 times: its binary is loaded after every free, as the same object throughout.
    func testAPluginBinaryStaysMappedAfterItsLastInstance() throws {
        let library = "/amp-swh.lv2/plugin-linux.so"   // wherever LV2_PATH finds swh-lv2
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/usr/lib/lv2" + library), "swh-lv2 is not installed")
        // Whether the binary is loaded in this process now: dlopen with RTLD_NOLOAD loads nothing, it finds a loaded
        // object (by path or by file identity) and returns its handle, the same one while it stays loaded.
        func loadedHandle() -> UnsafeMutableRawPointer? {
            guard let handle = dlopen("/usr/lib/lv2" + library, RTLD_LAZY | RTLD_NOLOAD) else { return nil }
            dlclose(handle)
            return handle
        }
        var first: UnsafeMutableRawPointer?
        for cycle in 0..<20 {
            do {
                let unit = try LV2Unit(uri: "http://plugin.org.uk/swh-plugins/amp", controls: ["gain": 0], hosting: .live)
                let driver = try UnitDriver(unit, channels: 1, maxFrames: 256)
                let output = driver.run([UnitDriver.sine(440, frames: 256)], block: 256)
                XCTAssertEqual(output[0].count, 256)
            }
            let now = loadedHandle()
            XCTAssertNotNil(now, "cycle \(cycle): the binary is still loaded once its instance is gone; LV2_PATH \(ProcessInfo.processInfo.environment["LV2_PATH"] ?? "unset")")
            if let first { XCTAssertEqual(now, first, "cycle \(cycle): not loaded again") } else { first = now }
        }
    }
}
