// `foldback run --meters` on a pseudo-terminal: number keys put buses into the cue and 0 clears it, through the OSC control path. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import FoldbackTestSupport
import Foundation
import XCTest

final class MeterViewKeysEndToEndTests: JACKServerTestCase {
    /// On a pseudo-terminal, pressing `2` cues the second bus and shows it in brackets on the meter view's cue
    /// line, `2` again takes it out, `1` then `0` cues the first and clears everything.
    func testNumberKeysCueBusesAndZeroClears() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let preset = folder + "/keys.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0, extra: """
            [[bus]]
            name = "iem"
            channels = 1
            [cue]
            gain_db = 0.0
            """)
        let pty = try PseudoTerminal()
        pty.startReading()
        let run = try FoldbackRun(
            ["run", preset, "--server", serverName, "--name", "fb-keys-\(getpid())", "--no-connect", "--meters", "--osc-port", "0"],
            testBundle: Bundle(for: Self.self), standardOutput: pty.terminal, standardInput: pty.terminal)
        defer { run.stop() }
        try run.waitUntilRunning()
        pty.closeChildSide()
        try waitFor("the cue line", timeout: 20) { pty.screen.contains("0 clear") }
        let osc = try OSCClient(serverPort: try run.announcedOSCPort())
        func cued() throws -> [String] {
            try osc.request(OSCMessage("/foldback/cue/get")) { $0.path == "/foldback/cue" }?.arguments.compactMap(\.text) ?? ["?"]
        }
        func press(_ key: String, until expected: [String]) throws {
            pty.type(key)
            try waitFor("cue \(expected) after key \(key)") { try cued() == expected }
        }
        try press("2", until: ["bus/iem"])
        try waitFor("the cue line showing [iem]") { pty.screen.contains("2 [iem]") }
        try press("2", until: [])
        try press("1", until: ["bus/main"])
        try press("0", until: [])
    }
}
