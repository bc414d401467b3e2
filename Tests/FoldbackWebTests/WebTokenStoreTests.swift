// The web tokens a show keeps between runs: per show path, in the state folder, mode 0600; fixed tokens win, --fresh-tokens rotates. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackPresets
@testable import FoldbackWeb
import Foundation
import XCTest

final class WebTokenStoreTests: XCTestCase {
    private var state = ""

    override func setUpWithError() throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-tokens-\(UUID().uuidString)").path
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: state) }

    private func store(_ show: String) throws -> WebTokenStore {
        try XCTUnwrap(WebTokenStore(showPath: show, environment: ["XDG_STATE_HOME": state, "HOME": "/nowhere"]))
    }

    /// A run's tokens come back at the next run of the same show, in a file only its owner may read (0600, folder 0700).
    func testTokensSurviveARestartInAPrivateFile() throws {
        let store = try store("/shows/tonight.toml")
        XCTAssertTrue(store.file.hasPrefix(state + "/foldback/tokens/tonight-"), store.file)
        let first = WebAccess.remembered(buses: ["foh", "iem_vox"], stored: store.load(), fresh: false)
        try store.save(first)
        let second = WebAccess.remembered(buses: ["foh", "iem_vox"], stored: store.load(), fresh: false)
        XCTAssertEqual(second, first, "the same links after a restart")
        let file = try FileManager.default.attributesOfItem(atPath: store.file)
        let folder = try FileManager.default.attributesOfItem(atPath: (store.file as NSString).deletingLastPathComponent)
        XCTAssertEqual((file[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual((folder[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        XCTAssertEqual(try self.store("/shows/../shows/./tonight.toml").file, store.file, "one show, however its path is spelled")
        XCTAssertNotEqual(try self.store("/other/tonight.toml").file, store.file, "another show of the same name has its own file")
    }

    /// `--fresh-tokens` gives every page a new token (rotation); a preset's fixed token wins over a stored one; a bus new
    /// to the show gets a fresh token while the others keep theirs; a bus this run lacks keeps its stored token in the file.
    func testFreshTokensRotateFixedOnesWinAndNewBusesJoin() throws {
        let store = try store("/shows/setlist.toml")
        let first = WebAccess.remembered(buses: ["foh", "iem_vox", "iem_gtr"], stored: store.load(), fresh: false)
        try store.save(first)

        let rotated = WebAccess.remembered(buses: ["foh", "iem_vox", "iem_gtr"], stored: store.load(), fresh: true)
        XCTAssertNotEqual(rotated.engineerToken, first.engineerToken)
        for (old, new) in zip(first.busTokens, rotated.busTokens) { XCTAssertNotEqual(old.token, new.token, "bus \(old.bus) rotated") }

        let fixed = WebSpec(busTokens: [WebSpec.BusToken(bus: "iem_vox", token: "singer-fixed-1")])
        let next = WebAccess.remembered(buses: ["foh", "iem_vox", "iem_keys"], fixed: fixed, stored: store.load(), fresh: false)
        XCTAssertEqual(next.engineerToken, first.engineerToken)
        XCTAssertEqual(next.busTokens.first { $0.bus == "foh" }?.token, first.busTokens[0].token)
        XCTAssertEqual(next.busTokens.first { $0.bus == "iem_vox" }?.token, "singer-fixed-1", "the preset's [web] token wins")
        let keys = try XCTUnwrap(next.busTokens.first { $0.bus == "iem_keys" }?.token)
        XCTAssertFalse(first.busTokens.map(\.token).contains(keys), "a new bus, a new token")
        try store.save(next, keeping: store.load().buses)
        XCTAssertEqual(store.load().buses["iem_gtr"], first.busTokens[2].token, "a bus this run lacks keeps its link for a later song")
    }

    /// A damaged file costs only the damaged tokens: malformed lines and tokens are passed over, and fresh ones made.
    func testAMalformedFileIsReplacedTokenByToken() throws {
        let store = try store("/shows/damaged.toml")
        try FileManager.default.createDirectory(atPath: (store.file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "engineer short\nbus foh good-token-123\nbus iem bad/token!!\nnonsense\n".write(toFile: store.file, atomically: true, encoding: .utf8)
        let stored = store.load()
        XCTAssertNil(stored.engineer, "a token under 8 characters is refused")
        XCTAssertEqual(stored.buses, ["foh": "good-token-123"])
        let access = WebAccess.remembered(buses: ["foh", "iem"], stored: stored, fresh: false)
        XCTAssertEqual(access.busTokens.map(\.token).first, "good-token-123")
        XCTAssertTrue(WebAccess.isWellFormed(access.engineerToken) && WebAccess.isWellFormed(access.busTokens[1].token))
    }

    /// Without a state folder (no XDG_STATE_HOME or HOME) there is no store: the show runs with fresh tokens.
    func testNoStateFolderMeansNoStore() {
        XCTAssertNil(WebTokenStore(showPath: "/shows/x.toml", environment: [:]))
        XCTAssertEqual(WebTokenStore(showPath: "/shows/x.toml", environment: ["HOME": "/home/me"])?.file.hasPrefix("/home/me/.local/state/foldback/tokens/x-"), true)
    }
}
