// The meter view's keys: cue any bus with its number, clear with 0; the cue line the view shows. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackControl
import FoldbackEngine
import FoldbackPresets

/// While `--meters` shows and the preset has a `[cue]`, keys `1` … `9` put the first nine buses (in preset
/// order) into the cue or take them out, and `0` clears it: the same control path as OSC
/// (`/foldback/cue/bus/<bus>`, `/foldback/cue/clear`), so the web page and OSC queries see the change.
package final class MeterViewKeys: @unchecked Sendable {
    private let session: LiveSession
    private let router: ControlRouter
    private var keys: TerminalKeys?
    /// Where the router thinks key presses come from (replies to it are dropped).
    private static let peer = OSCPeer(host: "127.0.0.1", port: 9)!

    /// Starts reading keys for `session`, whose requests go to the session's `router` (nil when standard
    /// input is not a terminal).
    package init?(session: LiveSession, router: ControlRouter) {
        self.session = session
        self.router = router
        let keys = TerminalKeys { [weak self] byte in self?.press(byte) }
        guard let keys else { return nil }
        self.keys = keys
    }

    /// Stops reading and restores the terminal.
    package func stop() { keys?.stop() }

    /// What key `byte` does.
    func press(_ byte: UInt8) {
        let preset = session.preset
        guard preset.cue != nil else { return }
        switch byte {
        case UInt8(ascii: "0"):
            _ = router.handle(OSCMessage(ControlRouter.root + "/cue/clear"), from: Self.peer, surface: .keys)
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            let index = Int(byte - UInt8(ascii: "1"))
            guard preset.buses.indices.contains(index) else { return }
            let isCued = CueSelection(session.engine).contains(.cueBus(bus: index))
            _ = router.handle(OSCMessage(ControlRouter.root + "/cue/bus/" + preset.buses[index].name, [.int(isCued ? 0 : 1)]), from: Self.peer, surface: .keys)
        default:
            return
        }
    }

    /// `cue  1 foh  2 [iem_vox]  3 wedge  0 clear   + vox pfl`: the keys, cued buses in brackets, cued strips
    /// after them; nil when the preset has no cue.
    static func cueLine(preset: Preset, cue: CueSelection) -> String? {
        guard preset.cue != nil else { return nil }
        func isCued(_ address: ParameterAddress) -> Bool { cue.contains(address) }
        let buses = preset.buses.prefix(9).enumerated().map { index, bus in
            "\(index + 1) " + (isCued(.cueBus(bus: index)) ? "[\(bus.name)]" : bus.name)
        }
        let strips = preset.strips.enumerated().flatMap { index, strip in
            [isCued(.cuePFL(strip: index)) ? "\(strip.name) pfl" : nil, isCued(.cueAFL(strip: index)) ? "\(strip.name) afl" : nil].compactMap { $0 }
        }
        return "cue  " + (buses + ["0 clear"]).joined(separator: "  ") + (strips.isEmpty ? "" : "   + " + strips.joined(separator: ", "))
    }
}
