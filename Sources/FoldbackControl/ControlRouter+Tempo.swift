// OSC `/foldback/tempo/tap`: the engineer's taps set the show tempo on every echo of the running preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation

extension ControlRouter {
    /// `/foldback/tempo/tap` with no argument (the tap is now) or `f SECONDS` (a surface's own timestamp on any
    /// monotonic clock): counts the tap (``TapTempo``: a lone tap and a beat within 10 ms of the tempo change
    /// nothing) and, when the tempo changes, sets `tempo_bpm` on every `echo` of the running preset, strips and
    /// buses. Replies `/foldback/tempo f BPM` (0 before any tempo).
    func tempoCommand(_ message: OSCMessage, parts: [Substring], surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        guard parts.count == 2, parts[1] == "tap" else { throw .unknownAddress("tempo commands: tap") }
        let time: Double
        switch message.arguments.first {
        case nil: time = ProcessInfo.processInfo.systemUptime
        case .float(let seconds)? where message.arguments.count == 1 && seconds.isFinite: time = Double(seconds)
        default: throw .malformed("\(message.path) takes no arguments, or 'f' (the tap's time in seconds)")
        }
        let (changed, bpm) = tempoTaps.withLock { taps in (taps.tap(at: time), taps.bpm) }
        if let changed {
            let count = try setEchoTempo(Float(changed))
            note("\(message.path): \(String(format: "%.1f", changed)) BPM on \(count) echo unit(s)", from: surface)
        }
        return [OSCMessage(Self.root + "/tempo", [.float(Float(bpm ?? 0))])]
    }

    /// Sets `tempo_bpm` to `bpm` on every echo of the running preset; returns how many.
    private func setEchoTempo(_ bpm: Float) throws(ControlError) -> Int {
        guard let graph = target.engine.graph else { throw .failed("no graph is running yet") }
        let preset = target.currentPreset
        let key = Substring(EchoUnit.liveParameters[Int(EchoUnit.tempoParameter)].key)
        let owners = preset.strips.map { ("strip", $0.name, $0.units) } + preset.buses.map { ("bus", $0.name, $0.units) }
        var count = 0
        for (kind, name, units) in owners {
            for unit in units where unit.type == EchoUnit.presetType {
                let path: [Substring] = [Substring(kind), Substring(name), "unit", Substring(unit.id), key]
                try apply(try ParameterPath.resolve(path, graph: graph, preset: preset), value: bpm)
                count += 1
            }
        }
        return count
    }
}
