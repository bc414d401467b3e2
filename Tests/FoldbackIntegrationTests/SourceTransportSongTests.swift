// `autostart = "song"`: a click track stopped in song 1 starts from the top when song 2, whose preset says so, is selected. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

final class SourceTransportSongTests: JACKServerTestCase {
    func testASourceWithAutostartSongStartsWhenItsSongIsSelected() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let writer = try AudioFileWriter(url: URL(fileURLWithPath: folder + "/click.wav"), sampleRate: 48_000, channelCount: 1)
        try writer.write(planar: [(0..<480_000).map { $0 % 24_000 < 480 ? 0.5 : 0 }])
        try writer.finish()
        for (name, autostart) in [("one", "false"), ("two", "\"song\"")] {
            try LiveControlRig.writePreset(to: folder + "/\(name).toml", voxGainDB: 0, extra: """
                [[strip]]
                name = "click"
                source = { file = "click.wav", autostart = \(autostart) }
                send = [{ bus = "main" }]
                """)
        }
        try "[[song]]\npreset = \"one.toml\"\n[[song]]\npreset = \"two.toml\"\n".write(toFile: folder + "/show.toml", atomically: true, encoding: .utf8)
        let rig = try LiveControlRig(server: serverName, arguments: ["--setlist", folder + "/show.toml"], testCase: self)
        defer { rig.close() }
        let locate = "/foldback/strip/click/source/locate"
        XCTAssertEqual(try rig.request(locate, [.float(0)])?.arguments.first, .string("stopped"), "song 1: autostart = false")
        XCTAssertEqual(try rig.request("/foldback/setlist/next")?.path, "/foldback/setlist")
        try rig.waitForLog("click: file player started with the song")
        XCTAssertEqual(try rig.request(locate, [.float(2)])?.arguments.first, .string("playing"), "song 2 started it")
    }
}
