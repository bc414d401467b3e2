// FileVersionCache: a file's value is read once until the file changes (even within one clock tick), bounded, failures never kept. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackPresets
import Foundation
import XCTest

final class FileVersionCacheTests: XCTestCase {
    private struct Refused: Error {}

    private func file(_ text: String, in dir: String, _ name: String) throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testAFileIsReadOnceUntilItIsReplacedAndTheCacheStaysBounded() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-fvc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = FileVersionCache<String>(capacity: 3)
        var reads = 0
        let read = { (path: String) throws -> String in
            reads += 1
            return try String(contentsOfFile: path, encoding: .utf8)
        }
        let set = try file("set A", in: dir, "personal.sofa")
        for _ in 0..<100 { XCTAssertEqual(try cache.value(key: set, path: set) { try read(set) }, "set A") }
        XCTAssertEqual(reads, 1, "read once for 100 asks")
        _ = try file("set B", in: dir, "personal.sofa")   // same size, most likely the same clock tick: a new inode
        XCTAssertEqual(try cache.value(key: set, path: set) { try read(set) }, "set B", "a replaced file is read again")
        XCTAssertEqual(reads, 2)
        XCTAssertThrowsError(try cache.value(key: "broken", path: set) { () throws -> String in throw Refused() })
        XCTAssertEqual(cache.count, 1, "a read that throws keeps nothing")
        XCTAssertEqual(cache.value(key: "missing", path: dir + "/none") { "made" }, "made")
        XCTAssertEqual(cache.count, 1, "a file that cannot be stamped is not kept")
        for index in 0..<10 {
            let path = try file("\(index)", in: dir, "f\(index)")
            _ = try cache.value(key: path, path: path) { try read(path) }
        }
        XCTAssertEqual(cache.count, 3, "bounded")
        let last = dir + "/f9"
        reads = 0
        _ = try cache.value(key: last, path: last) { try read(last) }
        XCTAssertEqual(reads, 0, "the most recent is kept")
        let first = dir + "/f0"
        _ = try cache.value(key: first, path: first) { try read(first) }
        XCTAssertEqual(reads, 1, "the least recently used went first")
    }
}
