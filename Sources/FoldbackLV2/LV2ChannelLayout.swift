// Maps a plugin's audio ports onto a strip's channels: dual mono, mono-to-stereo, or an explicit port choice. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// How one plugin occurrence sits on a strip: how many instances, and which engine channel each
/// instance's audio ports read and write.
struct LV2ChannelLayout: Equatable {
    /// Per instance: (plugin port index, engine input channel).
    var inputs: [[PortChannel]]
    /// Per instance: (plugin port index, engine output channel).
    var outputs: [[PortChannel]]
    /// Channels the unit reads (the engine repeats a mono strip's channel to fill them).
    var slotInputs: Int
    /// Channels the unit writes.
    var slotOutputs: Int

    struct PortChannel: Equatable {
        var port: Int
        var channel: Int
    }

    /// The layout of `info` on a strip of `channels` channels. `inputSymbols` and `outputSymbols`
    /// (the preset's `inputs`/`outputs`) choose the audio ports the strip feeds and takes; others read
    /// silence or are discarded.
    static func plan(
        _ info: LV2PluginInfo, channels: Int, inputSymbols: [String]?, outputSymbols: [String]?
    ) throws(LV2Error) -> LV2ChannelLayout {
        let ins = try choose(inputSymbols, from: info.audioInputs, what: "inputs", plugin: info.uri)
        let outs = try choose(outputSymbols, from: info.audioOutputs, what: "outputs", plugin: info.uri)
        guard ins.count <= 2 else {
            throw .ambiguousChannels(plugin: info.uri, reason: "it has \(ins.count) audio inputs (\(symbols(ins))); "
                + "choose the one or two the strip feeds, e.g. inputs = [\(quoted(ins.prefix(2)))]")
        }
        guard (1...2).contains(outs.count) else {
            let reason = outs.isEmpty ? "it has no audio outputs, so it cannot sit in a strip"
                : "it has \(outs.count) audio outputs (\(symbols(outs))); choose the one or two the strip continues with, "
                    + "e.g. outputs = [\(quoted(outs.prefix(2)))]"
            throw .ambiguousChannels(plugin: info.uri, reason: reason)
        }
        if ins.count <= 1 && outs.count == 1 && channels == 2 {
            let perSide = (0..<2).map { side in ins.map { PortChannel(port: $0.index, channel: side) } }
            return LV2ChannelLayout(
                inputs: perSide, outputs: (0..<2).map { [PortChannel(port: outs[0].index, channel: $0)] },
                slotInputs: 2, slotOutputs: 2)
        }
        if ins.count == 1 && channels == 2 {
            throw .ambiguousChannels(plugin: info.uri, reason: "it takes one input (\(ins[0].symbol)) and gives two outputs, "
                + "but its strip or bus is stereo there; put it on a mono strip or bus, or feed it a mono signal first")
        }
        return LV2ChannelLayout(
            inputs: [ins.enumerated().map { PortChannel(port: $1.index, channel: $0) }],
            outputs: [outs.enumerated().map { PortChannel(port: $1.index, channel: $0) }],
            slotInputs: max(1, ins.isEmpty ? channels : ins.count), slotOutputs: outs.count)
    }

    private static func choose(_ wanted: [String]?, from ports: [LV2PortInfo], what: String, plugin: String) throws(LV2Error) -> [LV2PortInfo] {
        guard let wanted else { return ports }
        var chosen: [LV2PortInfo] = []
        for symbol in wanted {
            guard let port = ports.first(where: { $0.symbol == symbol }) else {
                throw .ambiguousChannels(plugin: plugin, reason: "\(what) names '\(symbol)', which is not one of its audio \(what) (\(symbols(ports)))")
            }
            chosen.append(port)
        }
        return chosen
    }

    private static func symbols(_ ports: [LV2PortInfo]) -> String { ports.map(\.symbol).joined(separator: ", ") }
    private static func quoted(_ ports: ArraySlice<LV2PortInfo>) -> String { ports.map { "\"\($0.symbol)\"" }.joined(separator: ", ") }
}
