// The sound-check OSC commands: parsed into SoundcheckCommand, bad ones refused, a target without a take refuses. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackControl
import XCTest

final class SoundcheckCommandTests: XCTestCase {
    private func parse(_ path: String, _ arguments: [OSCArgument] = []) throws -> SoundcheckCommand {
        let parts = path.split(separator: "/")
        return try SoundcheckCommand.parse(parts[...], OSCMessage("/foldback/soundcheck/" + path, arguments))
    }

    func testEveryCommandParses() throws {
        XCTAssertEqual(try parse("play"), .play)
        XCTAssertEqual(try parse("stop"), .stop)
        XCTAssertEqual(try parse("get"), .status)
        XCTAssertEqual(try parse("locate", [.float(12.5)]), .locate(seconds: 12.5))
        XCTAssertEqual(try parse("locate", [.int(3)]), .locate(seconds: 3))
        XCTAssertEqual(try parse("loop", [.float(10), .float(20)]), .loop(10...20))
        XCTAssertEqual(try parse("loop"), .loop(nil))
        XCTAssertEqual(try parse("all", [.string("live")]), .source(strip: nil, onTake: false))
        XCTAssertEqual(try parse("strip/vox", [.string("take")]), .source(strip: "vox", onTake: true))
    }

    func testBadCommandsAreRefused() {
        for (path, arguments) in [
            ("play", [OSCArgument.int(1)]), ("locate", []), ("locate", [.float(-1)]), ("loop", [.float(5), .float(2)]),
            ("all", [.string("both")]), ("strip", [.string("take")]), ("rewind", []),
        ] {
            XCTAssertThrowsError(try parse(path, arguments), "\(path) \(arguments)")
        }
    }
}
