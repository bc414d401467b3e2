// A preset at a song's tempo: every echo's `tempo_bpm` set to it (a setlist entry's `bpm`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

extension Preset {
    /// The tempi a song may give, in BPM (an echo's `tempo_bpm` range).
    public static let tempoRange: ClosedRange<Float> = EchoParameters.tempoRange

    /// The first `echo`'s `tempo_bpm` (strips, then buses), or nil when the preset has no echo.
    public var echoTempo: Float? {
        let key = EchoUnit.liveParameters[Int(EchoUnit.tempoParameter)].key
        let echo = (strips.flatMap(\.units) + buses.flatMap(\.units)).first { $0.type == UnitSchema.echo.type }
        return echo.map { $0.parameters[key] ?? EchoParameters.defaults.tempo }
    }

    /// This preset with every `echo` unit (on strips and buses) counting its `sync` against `bpm`
    /// (clamped to ``tempoRange``); everything else as it is. A nil `bpm` changes nothing.
    public func settingTempo(_ bpm: Float?) -> Preset {
        guard let bpm else { return self }
        let tempo = min(max(bpm, Self.tempoRange.lowerBound), Self.tempoRange.upperBound)
        func retimed(_ units: [UnitSpec]) -> [UnitSpec] {
            units.map { unit in
                guard unit.type == UnitSchema.echo.type else { return unit }
                var copy = unit
                copy.parameters[EchoUnit.liveParameters[Int(EchoUnit.tempoParameter)].key] = tempo
                return copy
            }
        }
        var copy = self
        for index in copy.strips.indices { copy.strips[index].units = retimed(copy.strips[index].units) }
        for index in copy.buses.indices { copy.buses[index].units = retimed(copy.buses[index].units) }
        return copy
    }
}
