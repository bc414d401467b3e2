// OSC discovery of the parameter tree (`/foldback/parameters/get`), one message per parameter, paged. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
import FoldbackPresets

extension ControlRouter {
    /// The running show's parameter tree, or nil before a graph runs.
    public var parameterTree: ParameterTree? {
        target.engine.graph.map { ParameterPath.tree(graph: $0, preset: target.currentPreset) }
    }

    /// The live value of `node` (the preset's until someone sets it).
    public func value(of node: ParameterNode) -> Float {
        target.engine.value(at: node.address) ?? node.presetValue
    }

    /// `/foldback/parameters/get [i FIRST [i COUNT]]`: `/foldback/parameters i TOTAL i FIRST i COUNT`, then one
    /// ``parameterMessage(_:)`` per parameter of the page (all from FIRST without COUNT), in tree order. One
    /// message per UDP packet keeps every packet small whatever the show; pages keep a burst small.
    func parametersCommand(_ message: OSCMessage, parts: [Substring]) throws(ControlError) -> [OSCMessage] {
        guard parts.count == 2, parts[1] == "get" else { throw .unknownAddress("parameter commands: parameters/get [i first [i count]]") }
        let numbers = message.arguments.compactMap { argument -> Int? in
            if case let .int(value) = argument, value >= 0 { return Int(value) }
            return nil
        }
        guard numbers.count == message.arguments.count, numbers.count <= 2 else {
            throw .malformed("/foldback/parameters/get takes an optional first index and count (i i, from 0); got '\(message.typeTags)'")
        }
        guard let tree = parameterTree else { throw .failed("no graph is running yet") }
        let first = min(numbers.first ?? 0, tree.nodes.count)
        let count = min(numbers.count == 2 ? numbers[1] : tree.nodes.count, tree.nodes.count - first)
        let header = OSCMessage(Self.root + "/parameters", [.int(Int32(tree.nodes.count)), .int(Int32(first)), .int(Int32(count))])
        return [header] + tree.nodes[first..<first + count].map(parameterMessage)
    }

    /// `/foldback/parameter s PATH s TYPE f MIN f MAX f DEFAULT f VALUE s UNIT s CURVE i SMOOTHED s MUSICIAN s CHOICES`:
    /// MIN may be −inf (a level's silence); MUSICIAN is the bus whose musician may set it too ("" for the
    /// engineer only); CHOICES is `name=value` pairs joined by `|` ("" unless TYPE is `choice`).
    func parameterMessage(_ node: ParameterNode) -> OSCMessage {
        let descriptor = node.descriptor
        return OSCMessage(Self.root + "/parameter", [
            .string(node.path), .string(descriptor.type.rawValue), .float(descriptor.range.lowerBound), .float(descriptor.range.upperBound),
            .float(node.presetValue), .float(value(of: node)), .string(descriptor.unit), .string(descriptor.curve.rawValue),
            .int(descriptor.isSmoothed ? 1 : 0), .string(node.musicianBus ?? ""),
            .string(descriptor.choices.map { "\($0.name)=\(NumberFormatting.plain($0.value))" }.joined(separator: "|")),
        ])
    }
}
