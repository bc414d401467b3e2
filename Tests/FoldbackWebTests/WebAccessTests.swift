// Token lookup and the role rules: who may change which parameter. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackPresets
@testable import FoldbackWeb
import XCTest

final class WebAccessTests: XCTestCase {
    func testGeneratedTokensAreDistinctWellFormedAndMapToTheirRoles() {
        let access = WebAccess.generated(buses: ["main", "iem_vox", "iem_gtr"])
        let tokens = [access.engineerToken] + access.busTokens.map(\.token)
        XCTAssertEqual(Set(tokens).count, 4)
        for token in tokens {
            XCTAssertEqual(token.count, 16)
            XCTAssertTrue(WebAccess.isWellFormed(token))
        }
        XCTAssertEqual(access.role(for: access.engineerToken), .engineer)
        for (bus, token) in access.busTokens { XCTAssertEqual(access.role(for: token), .musician(bus: bus)) }
        XCTAssertNotEqual(WebAccess.generated(buses: ["main"]).engineerToken, WebAccess.generated(buses: ["main"]).engineerToken)
    }

    func testAPresetsFixedTokensAreKeptAndTheRestGenerated() {
        let fixed = WebSpec(engineerToken: nil, busTokens: [.init(bus: "iem_vox", token: "vox_Anna_1234")])
        let access = WebAccess.generated(buses: ["main", "iem_vox"], fixed: fixed)
        XCTAssertEqual(access.role(for: "vox_Anna_1234"), .musician(bus: "iem_vox"))
        XCTAssertEqual(access.busTokens.map(\.bus), ["main", "iem_vox"])
        XCTAssertEqual(access.busTokens[0].token.count, 16, "main has no fixed token: a generated one")
        XCTAssertNotEqual(access.engineerToken, "vox_Anna_1234")
        XCTAssertEqual(WebAccess.generated(buses: ["main"], fixed: WebSpec(engineerToken: "sound-desk-2026")).engineerToken, "sound-desk-2026")
    }

    func testMissingWrongAndMalformedTokensGrantNothing() {
        let access = WebTestTarget.access
        let engineer = access.engineerToken
        for token: String? in [nil, "", "short", engineer + "x", String(engineer.dropLast()), engineer.uppercased(), "vox-token-01235",
                               String(repeating: "a", count: 65), "engineer 0123456789", "engineer-0123456789\0", "éngineer-0123456789"] {
            XCTAssertNil(access.role(for: token), "token \(String(describing: token))")
        }
        XCTAssertNil(WebAccess(engineerToken: "same-token-1", busTokens: [("main", "same-token-1")]), "tokens must differ")
        XCTAssertNil(WebAccess(engineerToken: "has space here", busTokens: []), "tokens are URL-safe")
    }

    func testAMusicianMayChangeOnlyTheirOwnBusesSendsLevelAndMute() throws {
        let vox = WebRole.musician(bus: "iem_vox")
        let tree = ParameterTree(preset: try PresetLoader.parse(WebTestTarget.preset, path: "/tmp/web-test.toml"))
        func may(_ role: WebRole, _ path: String) -> Bool { WebAccess.mayChange(role, path.split(separator: "/", omittingEmptySubsequences: false), in: tree) }
        for path in ["strip/vox/send/iem_vox/gain_db", "strip/gtr/send/iem_vox/gain_db", "bus/iem_vox/gain_db", "bus/iem_vox/mute",
                     "strip/vox/send/iem_vox/mute", "strip/vox/send/iem_vox/gain_db/inc"] {
            XCTAssertTrue(may(vox, path), path)
            XCTAssertTrue(may(.engineer, path), path)
        }
        for path in ["strip/vox/send/iem_gtr/gain_db", "strip/vox/send/main/gain_db", "bus/iem_gtr/gain_db", "bus/main/mute",
                     "strip/vox/gain_db", "strip/vox/mute", "strip/vox/unit/comp/bypass", "bus/iem_vox/latency", "bus/iem_vox",
                     "strip/vox/send/iem_vox", "strip/vox/send/iem_vox/gain_db/x", "strip/vox/gain_db/inc", "strip/vox/send/iem_gtr/gain_db/inc", "preset/reload", "setlist/next", ""] {
            XCTAssertFalse(may(vox, path), path)
        }
        XCTAssertTrue(may(.engineer, "strip/vox/unit/comp/bypass"))
        XCTAssertFalse(may(.engineer, "preset/load"))
        // The engineer's tools are the engineer's: cue selections and talkback.
        for path in ["cue/bus/iem_vox", "cue/strip/vox/pfl", "cue/gain_db", "talkback/tb", "strip/vox/trim_db"] {
            XCTAssertTrue(may(.engineer, path), path)
            XCTAssertFalse(may(vox, path), path)
        }
    }

    /// A binaural bus's stage plot moves: its musician and the engineer may set its sends' azimuth, elevation and distance
    /// (as parsed from the page's message) and its room's level; another bus's musician may not, and a send into a plain
    /// stereo bus has no position.
    func testAMusicianPlacesOnlyTheirOwnBinauralBusesSourcesAndSetsItsRoom() throws {
        let tree = ParameterTree(preset: try PresetLoader.parse("""
            [[bus]]
            name = "ears"
            channels = 2
            binaural = true
            room = true
            [[bus]]
            name = "wedge"
            channels = 2
            [[strip]]
            name = "vox"
              [[strip.send]]
              bus = "ears"
              azimuth_deg = 30.0
              [[strip.send]]
              bus = "wedge"
            """, path: "/tmp/web-binaural.toml"))
        func may(_ role: WebRole, _ path: String) -> Bool { WebAccess.mayChange(role, path.split(separator: "/", omittingEmptySubsequences: false), in: tree) }
        for key in ["azimuth_deg", "elevation_deg", "distance_m"] {
            let request = try WebRequest.parse(#"{"path":"/foldback/strip/vox/send/ears/\#(key)","value":-90}"#)
            XCTAssertEqual(request, .set(path: "/foldback/strip/vox/send/ears/\(key)", value: -90))
            XCTAssertTrue(may(.musician(bus: "ears"), "strip/vox/send/ears/\(key)"), key)
            XCTAssertTrue(may(.engineer, "strip/vox/send/ears/\(key)"), key)
            XCTAssertFalse(may(.musician(bus: "wedge"), "strip/vox/send/ears/\(key)"), key)
            XCTAssertNil(tree.node(at: "strip/vox/send/wedge/\(key)"), "no position on a plain stereo bus")
        }
        XCTAssertEqual(tree.node(at: "strip/vox/send/ears/azimuth_deg")?.descriptor.range, -180...180)
        XCTAssertEqual(tree.node(at: "strip/vox/send/ears/elevation_deg")?.descriptor.range, -40...90)
        XCTAssertTrue(may(.musician(bus: "ears"), "bus/ears/room_db"))
        XCTAssertTrue(may(.engineer, "bus/ears/room_db"))
        XCTAssertFalse(may(.musician(bus: "wedge"), "bus/ears/room_db"))
        XCTAssertNil(tree.node(at: "bus/wedge/room_db"), "no room on a plain stereo bus")
    }
}

/// QR codes of the links, from libqrencode.
final class QRCodeTests: XCTestCase {
    func testALinkEncodesToAVersion4CodeWithFinderPatternsInEveryForm() throws {
        let code = try XCTUnwrap(QRCode("http://192.168.1.20:8080/?token=7b7009eff64bf9a8"))
        XCTAssertEqual(code.width, 33, "48 bytes at level M: version 4, 33 modules")
        // Finder patterns: a dark 7 × 7 ring with a dark 3 × 3 centre in three corners.
        for (top, left) in [(0, 0), (0, code.width - 7), (code.width - 7, 0)] {
            XCTAssertTrue((0..<7).allSatisfy { code.isDark(row: top, column: left + $0) && code.isDark(row: top + 6, column: left + $0) })
            XCTAssertFalse(code.isDark(row: top + 1, column: left + 1))
            XCTAssertTrue(code.isDark(row: top + 3, column: left + 3))
        }
        XCTAssertFalse(code.isDark(row: -1, column: 0), "the quiet zone is light")
        let lines = code.terminalLines()
        XCTAssertEqual(lines.count, (code.width + 2 * QRCode.quietZone + 1) / 2, "two module rows per line")
        XCTAssertEqual(lines[0].components(separatedBy: "▀").count - 1, code.width + 2 * QRCode.quietZone)
        let svg = code.svg()
        XCTAssertTrue(svg.hasPrefix("<svg") && svg.contains("viewBox=\"0 0 37 37\""), svg)
        XCTAssertEqual(svg.components(separatedBy: "h1v1h-1z").count - 1, code.modules.filter { $0 }.count, "one square per dark module")
        XCTAssertNil(QRCode(String(repeating: "x", count: 5000)), "too long for any QR code")
    }
}
