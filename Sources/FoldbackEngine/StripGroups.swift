// DCA and mute groups on the audio thread: membership laid out at build, a group move retargets its members. Realtime (build: non-realtime).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// The groups of a graph: per DCA its gain (dB) and mute, per mute group its state, and membership tables
/// (`group * stripCount + strip`), all laid out when the graph is built, so a move allocates nothing.
struct StripGroupsRender {
    var dcaCount: Int
    var dcaGainDB: UnsafeMutablePointer<Float>
    var dcaMuted: UnsafeMutablePointer<Bool>
    var dcaMembers: UnsafeMutablePointer<Bool>
    var muteGroupCount: Int
    var muteGroupMuted: UnsafeMutablePointer<Bool>
    var muteGroupMembers: UnsafeMutablePointer<Bool>

    /// The linear gain the DCAs of `strip` add to its fader (0 when one of them is muted).
    func dcaGain(ofStrip strip: Int, stripCount: Int) -> Float {
        var sumDB: Float = 0
        for dca in 0..<dcaCount where dcaMembers[dca * stripCount + strip] {
            if dcaMuted[dca] { return 0 }
            sumDB += dcaGainDB[dca]
        }
        return Decibels.linearGain(fromDecibels: sumDB)
    }

    /// Whether a mute group that is on holds `strip`.
    func isGroupMuted(strip: Int, stripCount: Int) -> Bool {
        for group in 0..<muteGroupCount where muteGroupMuted[group] && muteGroupMembers[group * stripCount + strip] { return true }
        return false
    }
}

extension GraphRender {
    /// Sets DCA `dca`'s gain (dB) or mute and retargets its members' faders.
    mutating func setDCA(_ dca: Int, gainDB: Float? = nil, isMuted: Bool? = nil) {
        guard dca < groups.dcaCount else { return }
        if let gainDB { groups.dcaGainDB[dca] = gainDB }
        if let isMuted { groups.dcaMuted[dca] = isMuted }
        for strip in 0..<stripCount where groups.dcaMembers[dca * stripCount + strip] {
            strips[strip].dcaGain = groups.dcaGain(ofStrip: strip, stripCount: stripCount)
            strips[strip].fader.setTarget(strips[strip].faderLinear * strips[strip].dcaGain)
        }
    }

    /// Turns mute group `group` on or off and regates every strip.
    mutating func setMuteGroup(_ group: Int, isOn: Bool) {
        guard group < groups.muteGroupCount else { return }
        groups.muteGroupMuted[group] = isOn
        for strip in 0..<stripCount { strips[strip].isGroupMuted = groups.isGroupMuted(strip: strip, stripCount: stripCount) }
        retargetGates()
    }
}

extension EngineGraph {
    /// The groups of ``description`` laid out for the audio thread (tables freed with the graph).
    func buildGroups() -> StripGroupsRender {
        let stripCount = description.strips.count
        func members(_ lists: [[Int]]) -> UnsafeMutablePointer<Bool> {
            let table = allocate(Bool.self, count: lists.count * stripCount)
            table.initialize(repeating: false, count: max(lists.count * stripCount, 1))
            for (group, strips) in lists.enumerated() {
                for strip in strips where (0..<stripCount).contains(strip) { table[group * stripCount + strip] = true }
            }
            return table
        }
        func values<Value>(_ list: [Value]) -> UnsafeMutablePointer<Value> {
            let table = allocate(Value.self, count: list.count)
            for (index, value) in list.enumerated() { (table + index).initialize(to: value) }
            return table
        }
        return StripGroupsRender(
            dcaCount: description.dcas.count, dcaGainDB: values(description.dcas.map(\.gainDB)),
            dcaMuted: values(description.dcas.map(\.isMuted)), dcaMembers: members(description.dcas.map(\.strips)),
            muteGroupCount: description.muteGroups.count, muteGroupMuted: values(description.muteGroups.map(\.isMuted)),
            muteGroupMembers: members(description.muteGroups.map(\.strips)))
    }
}
