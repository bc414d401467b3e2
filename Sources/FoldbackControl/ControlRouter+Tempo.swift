// OSC `/foldback/tempo/tap`: the engineer's taps set the show tempo on every echo of the running preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation

extension ControlRouter {
    /// The show tempo taps set: the target's own (a live show's), else the router's.
    var tempo: ShowTempo { target.liveTempo ?? ownTempo }

    /// Whether the running preset lets musicians' pages tap the show tempo (`[web] musicians_tap_tempo`).
    public var musiciansMayTapTempo: Bool { target.currentPreset.web.musiciansTapTempo }

    /// `/foldback/tempo/tap` with no argument (the tap is now) or `f SECONDS` (a surface's own timestamp on any
    /// monotonic clock): counts the tap (``TapTempo``: a lone tap and a beat within 10 ms of the tempo change
    /// nothing) and, when the tempo changes, sets `tempo_bpm` on every `echo` of the running preset, strips and
    /// buses. Replies `/foldback/tempo f BPM` (0 before any tempo). The tempo itself is the tree's `tempo/bpm`.
    func tempoCommand(_ message: OSCMessage, parts: [Substring], surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        let time: Double
        switch message.arguments.first {
        case nil: time = ProcessInfo.processInfo.systemUptime
        case .float(let seconds)? where message.arguments.count == 1 && seconds.isFinite: time = Double(seconds)
        default: throw .malformed("\(message.path) takes no arguments, or 'f' (the tap's time in seconds)")
        }
        if let changed = tempo.tap(at: time) {
            let count: Int
            do {
                count = try ShowTempo.retimeEchoes(to: Float(changed), in: target.engine)
            } catch {
                throw .failed("\(message.path): \(error)")
            }
            note("\(message.path): \(String(format: "%.1f", changed)) BPM on \(count) echo unit(s)", from: surface)
        }
        return [OSCMessage(Self.root + "/tempo", [.float(Float(tempo.bpm ?? 0))])]
    }
}
