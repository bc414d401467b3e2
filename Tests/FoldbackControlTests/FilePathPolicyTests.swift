// FilePathPolicy: which paths control requests may read and write, checked on real temporary folders. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import Foundation
import XCTest

final class FilePathPolicyTests: XCTestCase {
    /// A fresh folder holding `show.toml` (the running preset), and a fresh folder outside it.
    private var show = ""
    private var outside = ""
    private var preset: String { show + "/show.toml" }

    override func setUpWithError() throws {
        show = try Self.folder()
        outside = try Self.folder()
        try "".write(toFile: preset, atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        for folder in [show, outside] { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// A new empty folder under the temporary folder, as its real path.
    private static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-paths-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    private func assertRefused(
        _ path: String, _ fragment: String, policy: FilePathPolicy = FilePathPolicy(), file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try policy.resolve(path, presetPath: preset), "'\(path)' is refused", file: file, line: line) { error in
            guard case let .fileRefused(reason) = error as? ControlError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertTrue(reason.contains(fragment), "'\(reason)' should mention '\(fragment)'", file: file, line: line)
        }
    }

    func testTOMLFilesDirectlyInThePresetsFolderAreAllowedExistingOrNot() throws {
        try FileManager.default.createDirectory(atPath: show + "/sub", withIntermediateDirectories: true)
        let policy = FilePathPolicy()
        XCTAssertEqual(try policy.resolve(preset, presetPath: preset), preset)
        XCTAssertEqual(try policy.resolve(show + "/new.toml", presetPath: preset), show + "/new.toml", "a file not written yet")
        XCTAssertEqual(try policy.resolve(show + "/./sub/../new.toml", presetPath: preset), show + "/new.toml", "'..' that stays inside")
    }

    func testRelativePathsAreTakenFromThePresetsFolder() throws {
        let policy = FilePathPolicy()
        XCTAssertEqual(try policy.resolve("saved.toml", presetPath: preset), show + "/saved.toml")
        XCTAssertEqual(try policy.resolve("./saved.toml", presetPath: preset), show + "/saved.toml")
        assertRefused("../saved.toml", "outside the folders")
    }

    func testOtherFoldersSubfoldersAndDotDotEscapesAreRefused() throws {
        try FileManager.default.createDirectory(atPath: show + "/sub", withIntermediateDirectories: true)
        assertRefused(outside + "/elsewhere.toml", "outside the folders")
        assertRefused(show + "/sub/deeper.toml", "outside the folders")   // subfolders are not included
        assertRefused(show + "/../" + URL(fileURLWithPath: outside).lastPathComponent + "/x.toml", "outside the folders")
        assertRefused(show + "/../../../../../../../../etc/passwd.toml", "outside the folders")
        assertRefused("/x.toml", "outside the folders")
    }

    func testSymlinksThatLeadOutsideAreRefusedAndOnesThatStayInsideResolve() throws {
        let manager = FileManager.default
        try "".write(toFile: outside + "/target.toml", atomically: true, encoding: .utf8)
        try manager.createSymbolicLink(atPath: show + "/link.toml", withDestinationPath: outside + "/target.toml")
        try manager.createSymbolicLink(atPath: show + "/away", withDestinationPath: outside)
        try manager.createSymbolicLink(atPath: show + "/dangling.toml", withDestinationPath: outside + "/missing.toml")
        try manager.createSymbolicLink(atPath: show + "/alias.toml", withDestinationPath: preset)
        try manager.createSymbolicLink(atPath: show + "/passwd.toml", withDestinationPath: "/etc/passwd")
        assertRefused(show + "/link.toml", "outside the folders")
        assertRefused(show + "/away/new.toml", "outside the folders")
        assertRefused(show + "/dangling.toml", "a symlink to nothing")
        assertRefused(show + "/passwd.toml", "not a .toml file")
        XCTAssertEqual(try FilePathPolicy().resolve("alias.toml", presetPath: preset), preset, "a link inside resolves to its target")
        XCTAssertEqual(try FilePathPolicy().resolve(show + "/away/new.toml", presetPath: show + "/away/song.toml"), outside + "/new.toml",
                       "the preset's folder is itself taken by its real path")
    }

    func testOnlyTOMLFileNamesAreAllowed() throws {
        try FileManager.default.createDirectory(atPath: show + "/folder.toml", withIntermediateDirectories: true)
        assertRefused(show + "/notes.txt", "is not a .toml file")
        assertRefused(show + "/show.toml.bak", "is not a .toml file")
        assertRefused(show + "/.toml", "is not a .toml file")
        assertRefused(show + "/new.TOML", "is not a .toml file")
        assertRefused(show + "/show.toml/", "is not a .toml file")
        assertRefused(show + "/..", "is not a .toml file")
        assertRefused(show + "/folder.toml", "not a .toml file")   // a folder is not a file
    }

    func testEmptyOverlongAndNULPathsAreRefused() throws {
        assertRefused("", "empty file path")
        let long = show + "/" + String(repeating: "a", count: FilePathPolicy.maxPathBytes) + ".toml"
        assertRefused(long, "longer than 1024 bytes")
        assertRefused(show + "/x\u{0}.toml", "NUL byte")
        assertRefused(show + "/new.toml\u{0}/etc/passwd", "NUL byte")
        assertRefused("/tmp/\u{1B}[2Jx.txt", "'/tmp/\\u{1B}[2Jx.txt' is not a .toml file")   // no terminal control from the network
    }

    func testAFileInAMissingFolderIsRefused() throws {
        assertRefused(show + "/missing/new.toml", "its folder does not exist")
        assertRefused("missing/new.toml", "its folder does not exist")
    }

    func testAllowedFoldersAndTheSetlistsFolderAreAddedAndBadOnesRefused() throws {
        let extra = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: extra) }
        let linked = show + "/extra-link"
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: extra)
        let policy = try FilePathPolicy(folders: [linked, extra])
        XCTAssertEqual(policy.folders, [extra], "stored once, by real path")
        XCTAssertEqual(try policy.resolve(extra + "/a.toml", presetPath: preset), extra + "/a.toml")
        XCTAssertEqual(try policy.resolve(linked + "/a.toml", presetPath: preset), extra + "/a.toml")
        assertRefused(outside + "/a.toml", extra, policy: policy)   // the refusal lists the allowed folders

        let withSetlist = FilePathPolicy().including(folderOf: outside + "/friday.toml")
        XCTAssertEqual(try withSetlist.resolve(outside + "/a.toml", presetPath: preset), outside + "/a.toml")
        XCTAssertEqual(FilePathPolicy().including(folderOf: outside + "/gone/friday.toml"), FilePathPolicy(), "a missing folder adds nothing")

        for bad in [outside + "/missing", preset] {
            XCTAssertThrowsError(try FilePathPolicy(folders: [bad])) { error in
                XCTAssertEqual(error as? ControlError, .fileRefused("'\(bad)' is not an existing folder"))
            }
        }
    }
}
