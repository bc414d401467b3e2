// OSC relative moves: `/foldback/<parameter path>/inc f DELTA` on any numeric node of the tree, clamped to its range. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

extension ControlRouter {
    /// The last part of an address that moves a parameter by a step instead of setting it.
    static let incrementCommand = "inc"
    /// Where a level at −∞ dB starts when moved up (a fader's bottom mark).
    static let silenceFloorDB: Float = -90

    /// Whether `parts` (the address after `/foldback/`) is a parameter path of a strip, bus, DCA or the cue followed by `inc`.
    static func isIncrement(_ parts: [Substring]) -> Bool {
        parts.count >= 3 && parts.last == Substring(incrementCommand) && ["strip", "bus", "dca", "cue"].contains(parts[0])
    }

    /// `…/<path>/inc f DELTA`: moves the numeric parameter at `parts` (without `inc`) by DELTA in its own unit
    /// (dB for levels), clamped to its range; a whole-number parameter moves by whole steps. Replies with the
    /// value it now has, as `…/<path>/get` would. Switches and choices refuse it (set them instead).
    func increment(_ message: OSCMessage, parts: [Substring]) throws(ControlError) -> [OSCMessage] {
        guard let graph = target.engine.graph else { throw .failed("no graph is running yet") }
        let parameter = try ParameterPath.resolve(parts, graph: graph, preset: target.currentPreset)
        let node = parameter.node
        guard node.descriptor.type == .number || node.descriptor.type == .integer else {
            throw .malformed("\(parameter.name) is a \(node.descriptor.type.rawValue), not a number: set it instead of 'inc'")
        }
        guard message.arguments.count == 1, let delta = message.arguments[0].number, delta.isFinite else {
            throw .malformed("\(message.path) takes one number, the step (f, in \(node.descriptor.unit.isEmpty ? "the parameter's unit" : node.descriptor.unit)); got '\(message.typeTags)'")
        }
        let current = target.engine.value(at: node.address) ?? node.presetValue
        let value = Self.stepped(current, by: delta, node: node)
        if value != current { try apply(parameter, value: value) }
        let path = Self.root + "/" + parts.joined(separator: "/")
        return [OSCMessage(path, [.float(value)])]
    }

    /// `current` moved by `delta` within `node`'s range: a level at −∞ starts from ``silenceFloorDB``; whole numbers stay whole.
    static func stepped(_ current: Float, by delta: Float, node: ParameterNode) -> Float {
        let range = node.range
        var start = current
        if start == -.infinity { start = delta > 0 ? max(silenceFloorDB, range.lowerBound) : start }
        var value = start + (node.descriptor.type == .integer ? delta.rounded() : delta)
        if value.isNaN { value = current }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
