// `foldback run --web-port`: ports and latency before the links, QR codes only with --qr, and the same links after a restart unless --fresh-tokens (kept in a 0600 file). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import XCTest

final class WebLinksAcrossRestartsTests: JACKServerTestCase {
    /// One run of `preset` with `options`: the tokens it printed (by role) and its standard error.
    private func run(_ preset: String, _ options: [String] = []) throws -> (tokens: [String: String], log: String) {
        let (rig, _, tokens) = try LiveControlRig.web(server: serverName, testCase: self, preset: preset, options: options)
        defer { rig.close() }
        return (tokens, rig.run.standardError)
    }

    func testLinksSurviveARestartAndFreshTokensRotateThem() throws {
        let preset = try LiveControlRig.temporaryFolder() + "/band.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0, extra: """
              [[strip.send]]
              bus = "iem"
            [[bus]]
            name = "iem"
            channels = 1
            [web.bus_tokens]
            iem = "iem-fixed-token"
            """)
        let first = try run(preset)
        XCTAssertEqual(Set(first.tokens.keys), ["engineer", "main", "iem"])

        // Start-up output: what runs and its ports, then the latency, then the links; no QR code without --qr.
        let lines = first.log.split(separator: "\n").map(String.init)
        func index(_ text: String) -> Int { lines.firstIndex { $0.contains(text) } ?? -1 }
        XCTAssertTrue((0..<index("  outputs:")).contains(index("foldback: running")), first.log)
        XCTAssertLessThan(index("  outputs:"), index("OSC on"), "ports before the surfaces:\n\(first.log)")
        XCTAssertLessThan(index("OSC on"), index("engineer: http"), first.log)
        XCTAssertFalse(first.log.contains("▀"), "no QR code without --qr")
        XCTAssertTrue(first.log.contains("--qr prints each musician's link as a QR code"), first.log)

        // The tokens' file, private to the user.
        let kept = try XCTUnwrap(first.log.range(of: #"tokens kept in (/[^;]+\.tokens)"#, options: .regularExpression).map { String(first.log[$0].dropFirst("tokens kept in ".count)) })
        let mode = try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600, kept)

        let second = try run(preset)
        XCTAssertEqual(second.tokens, first.tokens, "the same links after a restart: bookmarks keep working")

        let rotated = try run(preset, ["--fresh-tokens", "--qr"])
        XCTAssertNotEqual(rotated.tokens["engineer"], first.tokens["engineer"])
        XCTAssertNotEqual(rotated.tokens["main"], first.tokens["main"])
        XCTAssertEqual(rotated.tokens["iem"], "iem-fixed-token", "a token the preset fixes stays")
        let qrRows = rotated.log.split(separator: "\n").filter { $0.contains("▀") }
        XCTAssertGreaterThanOrEqual(qrRows.count, 2 * 11, "--qr: a code per musician's link (main and iem), each at least 11 rows")
        XCTAssertLessThan(rotated.log.range(of: "engineer: http")?.lowerBound ?? rotated.log.endIndex,
                          rotated.log.range(of: "▀")?.lowerBound ?? rotated.log.startIndex, "the codes after the links")

        let after = try run(preset)
        XCTAssertEqual(after.tokens, rotated.tokens, "the rotated links are the ones kept")
    }
}
