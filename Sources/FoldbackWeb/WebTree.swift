// The web state's two halves: the parameter tree (paths, ranges, choices, outputs) sent once and whenever it changes, and the values sent on every change. Non-realtime (the push thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// `{"type": "tree", "version": N, "parameters": [...], "outputs": [...]}`: every node of the parameter tree
/// without its live value (`value` is the preset's), and the units' outputs. A `state` message then carries
/// `"tree": N` and `"values": [...]`, one per node in this order, with empty `parameters` and `outputs`.
struct WebTree: Encodable {
    var type = "tree"
    var version: Int
    var parameters: [WebState.Parameter]
    var outputs: [WebUnitOutput]

    /// The tree of `state`, numbered `version`.
    init(_ state: WebState, version: Int) {
        self.version = version
        parameters = state.parameters.map { parameter in
            var node = parameter
            node.value = node.default
            return node
        }
        outputs = state.outputs
    }

    /// A fingerprint of `state`'s tree (paths, types, ranges, units, choices, outputs), cheap enough for every tick:
    /// equal trees give equal fingerprints.
    static func fingerprint(_ state: WebState) -> Int {
        var hasher = Hasher()
        for parameter in state.parameters {
            hasher.combine(parameter.path)
            hasher.combine(parameter.type)
            hasher.combine(parameter.min)
            hasher.combine(parameter.max)
            hasher.combine(parameter.default)
            hasher.combine(parameter.unit)
            hasher.combine(parameter.choices?.count ?? -1)
            hasher.combine(parameter.label)
        }
        for output in state.outputs { hasher.combine(output.path) }
        return hasher.finalize()
    }

    /// The `state` message of `state` against tree `version`: everything but the tree, and the nodes' values.
    static func valuesText(_ state: WebState, version: Int) -> String {
        var values = state
        values.parameters = []
        values.outputs = []
        let text = values.jsonText()
        let numbers = Values(tree: version, values: state.parameters.map(\.value)).jsonText()
        guard text.hasSuffix("}"), numbers.hasPrefix("{") else { return text }
        return text.dropLast() + "," + numbers.dropFirst()   // two objects of distinct keys, joined
    }

    private struct Values: Encodable {
        var tree: Int
        var values: [Float]
    }
}
