// What is in the engineer's cue now, read once from the engine's live values, for every surface that shows it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
public import FoldbackPresets

/// The cue selections of a running engine at one moment (buses, strip PFL and AFL), as OSC, the web page and
/// the meter view all read them.
public struct CueSelection: Sendable {
    private let cued: Set<ParameterAddress>

    /// The selections `engine` holds now.
    public init(_ engine: Engine) {
        cued = Set(engine.changedValues.filter { $0.key.isCueSelection && $0.value != 0 }.keys)
    }

    /// Whether the selection at `address` (``ParameterAddress/cueBus(bus:)``, `cuePFL`, `cueAFL`) is in the cue.
    public func contains(_ address: ParameterAddress) -> Bool { cued.contains(address) }

    /// What is cued, as `bus/<bus>` and `strip/<strip>/pfl|afl` in `preset`'s names, sorted.
    public func sources(in preset: Preset) -> [String] {
        cued.compactMap { address -> String? in
            switch address {
            case let .cueBus(bus): return preset.buses.indices.contains(bus) ? "bus/\(preset.buses[bus].name)" : nil
            case let .cuePFL(strip): return preset.strips.indices.contains(strip) ? "strip/\(preset.strips[strip].name)/pfl" : nil
            case let .cueAFL(strip): return preset.strips.indices.contains(strip) ? "strip/\(preset.strips[strip].name)/afl" : nil
            default: return nil
            }
        }.sorted()
    }
}
