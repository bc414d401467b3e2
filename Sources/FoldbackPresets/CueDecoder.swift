// Validates the preset's `[cue]` section into a CueSpec. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// Reads and checks the `[cue]` table.
enum CueDecoder {
    /// The keys `[cue]` accepts.
    static let keys = [ParameterTree.Key.gain, ParameterTree.Key.limiterCeiling, ParameterTree.Key.limiterRelease, "limiter_mode", "connect"]

    /// The cue output, or nil without a `[cue]` table; a bus whose ports would take the cue's names is an error.
    static func decode(_ reader: TableReader?, buses: [BusSpec]) -> CueSpec? {
        guard let reader else { return nil }
        reader.checkKeys(allowed: keys)
        let cue = CueSpec(
            gainDB: reader.number(ParameterTree.Key.gain, in: BusDecoder.levelRange, default: 0),
            limiter: BusDecoder.limiterSettings(reader, defaultMode: .zeroLatency),
            connections: reader.connections(channels: 2, owner: "the cue output"), location: reader.location)
        for bus in buses where bus.hasOutput {
            let ports = PortNaming.outputPortNames(bus: bus.name, channels: bus.channels)
            if let clash = ports.first(where: PortNaming.cuePortNames.contains) {
                reader.log.error("bus '\(bus.name)' has an output port '\(clash)', which is the cue output's; rename the bus", at: bus.location)
            }
        }
        return cue
    }
}
