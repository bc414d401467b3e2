// A live session's song files: each read once until it changes, a refused one never kept, at most 64 kept (what bounds the memory setlist moves keep). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLive
import FoldbackPresets
import XCTest

final class PresetFileCacheTests: XCTestCase {
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-cache-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func song(gainDB: Double) -> String {
        "[[bus]]\nname = \"main\"\n[[strip]]\nname = \"vox\"\ngain_db = \(gainDB)\nsend = [{ bus = \"main\" }]\n"
    }

    func testTwoThousandMovesBetweenTwoSongsKeepTwoPresetsAndAnEditIsReadAgain() throws {
        let dir = try folder()
        let one = dir + "/one.toml", two = dir + "/two.toml"
        try song(gainDB: -1).write(toFile: one, atomically: true, encoding: .utf8)
        try song(gainDB: -2).write(toFile: two, atomically: true, encoding: .utf8)
        let cache = PresetFileCache()
        for move in 0..<2000 {
            XCTAssertEqual(try cache.load(path: move % 2 == 0 ? one : two).strips[0].gainDB, move % 2 == 0 ? -1 : -2)
        }
        XCTAssertEqual(cache.count, 2, "two files kept, whatever the number of moves")
        try song(gainDB: -7.5).write(toFile: one, atomically: true, encoding: .utf8)   // an edit of the same size, likely in the same clock tick: a new inode
        XCTAssertEqual(try cache.load(path: one).strips[0].gainDB, -7.5, "an edited file is read again")
        XCTAssertEqual(cache.count, 2)
        try "[[bus]]\nname = \"main\"\n[[strip]]\nname = \"vox\"\ngain_db = \"loud\"\n".write(toFile: two, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try cache.load(path: two), "a broken edit is refused as a load refuses it")
        for index in 0..<(PresetFileCache.capacity + 10) {
            let path = dir + "/song\(index).toml"
            try song(gainDB: Double(-index)).write(toFile: path, atomically: true, encoding: .utf8)
            _ = try cache.load(path: path)
        }
        XCTAssertEqual(cache.count, PresetFileCache.capacity, "bounded")
    }
}
