// The log feature: a plugin's printf lands in the instance's ring tagged with its level, and a line that would have to wait is dropped and counted. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackLV2
import CLilv
import XCTest
@testable import FoldbackLV2

final class LV2LogTests: XCTestCase {
    private func write(_ logger: UnsafeMutablePointer<fb_lv2_logger>, type: UInt32, _ format: String, _ arguments: any CVarArg...) -> Int32 {
        withVaList(arguments) { list in logger.pointee.log.vprintf(logger.pointee.log.handle, type, format, list) }
    }

    func testPrintfIsQueuedWithItsLevel() {
        let urids = LV2URIDMap()
        let log = LV2Log(plugin: "urn:test", urids: urids)
        let warning = urids.map("http://lv2plug.in/ns/ext/log#Warning")
        XCTAssertEqual(write(log.logger, type: warning, "gain %d dB on channel %d\n", 6, 2), 22)
        var buffer = [UInt8](repeating: 0, count: 256)
        let size = buffer.withUnsafeMutableBytes { log.state.pointee.ring.pop(into: $0.baseAddress!, capacity: $0.count) }
        XCTAssertEqual(size, 4 + 22)
        XCTAssertEqual(buffer.withUnsafeBytes { $0.load(as: UInt32.self) }, warning)
        XCTAssertEqual(String(decoding: buffer[4..<26], as: UTF8.self), "gain 6 dB on channel 2")
    }

    func testALineArrivingWhileAnotherIsQueuedIsDroppedNotWaitedFor() {
        let log = LV2Log(plugin: "urn:test", urids: LV2URIDMap())
        log.state.pointee.isWriting.store(true, ordering: .relaxed)
        _ = write(log.logger, type: 1, "lost")
        XCTAssertEqual(log.state.pointee.dropped.load(ordering: .relaxed), 1)
        log.state.pointee.isWriting.store(false, ordering: .relaxed)
        XCTAssertTrue(log.drain() == false, "nothing was queued")
    }
}
