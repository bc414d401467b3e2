// OSC for the cue output: select buses and strip PFL/AFL (summed, crossfaded), clear, level, and what is cued. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackPresets

extension ControlRouter {
    /// `/foldback/cue/bus/<bus> i 1|0`, `/foldback/cue/strip/<strip>/pfl|afl i 1|0`, `/foldback/cue/clear`,
    /// `/foldback/cue/gain_db f`; each selection or level answers `…/get`; `/foldback/cue/get` lists what is cued.
    func cueCommand(_ message: OSCMessage, parts: [Substring]) throws(ControlError) -> [OSCMessage] {
        let preset = target.currentPreset
        guard preset.cue != nil else { throw .failed("the preset has no cue output (add a [cue] section)") }
        var path = parts.dropFirst().map(String.init)
        let isQuery = path.last == "get"
        if isQuery { path.removeLast() }
        if path.isEmpty, isQuery {
            try expectNoArguments(message)
            return [OSCMessage(Self.root + "/cue", CueSelection(target.engine).sources(in: preset).map { .string($0) })]
        }
        guard let graph = target.engine.graph else { throw .failed("no graph is running yet") }
        let tree = ParameterPath.tree(graph: graph, preset: preset)
        guard let address = tree.node(at: (["cue"] + path).joined(separator: "/"))?.address else {
            throw .unknownAddress("cue addresses: cue/get, \(tree.paths(under: "cue/").map { "cue/" + $0 }.joined(separator: ", "))")
        }
        let valuePath = Self.root + "/cue/" + path.joined(separator: "/")
        if isQuery, address != .cueClear {
            try expectNoArguments(message)
            if address == .cueGain { return [OSCMessage(valuePath, [.float(target.engine.value(at: address) ?? preset.cue?.gainDB ?? 0)])] }
            return [OSCMessage(valuePath, [.int((target.engine.value(at: address) ?? 0) == 0 ? 0 : 1)])]
        }
        let value: Float
        switch address {
        case .cueClear:
            try expectNoArguments(message)
            value = 1
        case .cueGain:
            guard message.arguments.count == 1, let gain = message.arguments[0].number, !gain.isNaN, gain <= EngineGraph.maxGainDB else {
                throw .malformed("\(valuePath) takes one number, dB up to \(EngineGraph.maxGainDB); got '\(message.typeTags)'")
            }
            value = gain
        default:
            guard message.arguments.count == 1, let flag = message.arguments[0].number, flag == 0 || flag == 1 else {
                throw .malformed("\(valuePath) takes 'i 1' (cue it) or 'i 0' (take it out); got '\(message.typeTags)'")
            }
            value = flag
        }
        do {
            try target.engine.set(address, to: value)
        } catch {
            throw .failed("\(valuePath): \(error)")
        }
        return []
    }
}
