// Setlist files (parsing, errors at file:line:column) and moving through them by index, next and previous. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackPresets
import XCTest

final class SetlistTests: XCTestCase {
    private func showFolder() throws -> (folder: String, songs: [String]) {
        let first = try ControlFixtures.write(ControlFixtures.preset, name: "opener.toml")
        let folder = (first as NSString).deletingLastPathComponent
        var songs = [first]
        for (index, gain) in ["-6.0", "-12.0"].enumerated() {
            let path = folder + "/song\(index + 2).toml"
            try ControlFixtures.preset.replacingOccurrences(of: "gain_db = -2.0", with: "gain_db = \(gain)").write(toFile: path, atomically: true, encoding: .utf8)
            songs.append(path)
        }
        return (folder, songs)
    }

    func testASetlistResolvesPresetsAgainstItsFolderAndMovesBySelectNextAndPrevious() throws {
        let (folder, songs) = try showFolder()
        let file = folder + "/friday.toml"
        try """
            [setlist]
            name = "Friday"

            [[song]]
            name = "Opener"
            preset = "opener.toml"

            [[song]]
            preset = "song2.toml"

            [[song]]
            name = "Closer"
            preset = "\(songs[2])"
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let setlist = try SetlistLoader.load(path: file)
        XCTAssertEqual(setlist.name, "Friday")
        XCTAssertEqual(setlist.entries.map(\.name), ["Opener", "song2.toml", "Closer"])
        XCTAssertEqual(setlist.entries.map(\.presetPath), [folder + "/opener.toml", folder + "/song2.toml", songs[2]])

        let target = try OfflineTarget(path: songs[0])
        let controller = SetlistController(setlist: setlist, target: target)
        let router = ControlRouter(target: target, setlist: controller)
        let peer = OSCPeer(host: "127.0.0.1", port: 1)!
        XCTAssertEqual(router.handle(OSCMessage("/foldback/setlist/next"), from: peer), [OSCMessage("/foldback/setlist", [.int(2), .int(3), .string("song2.toml")])])
        XCTAssertEqual(target.currentPreset.strips[0].gainDB, -6)
        try controller.select(index: 2)   // what a MIDI program change 2 does
        XCTAssertEqual(controller.positionText, "song 3/3 'Closer'")
        XCTAssertEqual(target.currentPreset.strips[0].gainDB, -12)
        XCTAssertEqual(router.handle(OSCMessage("/foldback/setlist/next"), from: peer).first?.path, OSCServer.errorPath, "no song after the last")
        XCTAssertEqual(router.handle(OSCMessage("/foldback/setlist/prev"), from: peer), [OSCMessage("/foldback/setlist", [.int(2), .int(3), .string("song2.toml")])])
        XCTAssertEqual(router.handle(OSCMessage("/foldback/setlist/select", [.int(1)]), from: peer).first, OSCMessage("/foldback/setlist", [.int(1), .int(3), .string("Opener")]))
        XCTAssertThrowsError(try controller.select(index: 3))
        XCTAssertEqual(controller.index, 0, "a refused move stays put")
        XCTAssertEqual(target.switches.withLock { $0 }, [songs[1], songs[2], songs[1], songs[0]])
    }

    func testSetlistErrorsNameFileLineAndColumn() throws {
        let (folder, _) = try showFolder()
        let file = folder + "/broken.toml"
        try """
            [setlist]
            nme = "typo"

            [[song]]
            preset = "missing.toml"

            [[song]]
            name = "No preset"
            """.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SetlistLoader.load(path: file)) { error in
            let text = (error as? PresetError)?.description ?? "\(error)"
            XCTAssertTrue(text.contains("\(file):2:1: error: unknown key 'nme'"), text)
            XCTAssertTrue(text.contains("\(file):5:10: error: preset 'missing.toml' cannot be read"), text)
            XCTAssertTrue(text.contains("\(file):7:1: error: [[song]] is missing required key 'preset'"), text)
        }
        XCTAssertThrowsError(try SetlistLoader.parse("[setlist]\nname = \"empty\"\n", path: "empty.toml")) { error in
            XCTAssertTrue("\(error)".contains("no songs"), "\(error)")
        }
    }
}
