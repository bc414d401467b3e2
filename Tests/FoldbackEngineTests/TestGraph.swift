// Graph-description shorthands shared by the engine tests: one strip into one bus.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// Graph shorthands.
enum TestGraph {
    /// One strip of `channels` channels sending to one bus of `busChannels` channels.
    static func single(
        stripChannels: Int = 1, busChannels: Int = 1, gainDB: Float = 0, pan: Float = 0, units: [any EngineUnit] = [],
        bypassed: [Bool] = [], send: SendDescription = SendDescription(bus: 0), busGainDB: Float = 0
    ) -> GraphDescription {
        GraphDescription(
            strips: [StripDescription(name: "vox", channels: stripChannels, units: units, bypassedUnits: bypassed,
                                      sends: [send], gainDB: gainDB, pan: pan)],
            buses: [BusDescription(name: "main", channels: busChannels, gainDB: busGainDB)])
    }
}
