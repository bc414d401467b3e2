// What the web state is read from, cheap to take every tick: when it equals the last tick's, the state has not changed. Non-realtime (the push thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import Foundation

/// Everything ``WebState/read(_:setlist:)`` depends on, in a form that costs a few lookups rather than the
/// whole state: the graph playing (its preset, tree and unit outputs), every value set since it started (the
/// engine's ``Engine/changedValues``, cue selections among them), the host-side nodes' live values (a file
/// source's tempo, a strip's input, a sandboxed plugin's fault), the file sources and sound-check take as shown,
/// the setlist line and the tempo line. Equal keys give equal states, so the push thread reads the state (and
/// encodes what each role sees of it) only when the key changed.
struct WebStateKey: Equatable {
    /// The graph itself, held so another graph can never take its address while this key is kept.
    private var graph: EngineGraph?
    private var preset: String
    private var values: [ParameterAddress: Float]
    private var host: [Float?]
    private var sources: [String]
    private var take: WebState.Soundcheck?
    private var setlist: String?
    private var tempo: String?

    /// The key of `target` now; `hostAddresses` are the host-side nodes of its tree (``hostAddresses(of:)``).
    init(_ target: any LiveControlTarget, setlist: SetlistController?, hostAddresses: [ParameterAddress]) {
        let engine = target.engine
        graph = engine.graph
        preset = target.currentPreset.name ?? target.currentPreset.path
        values = engine.changedValues
        host = hostAddresses.map { engine.value(at: $0) }
        sources = target.fileSources().map { source in
            let shown = WebState.Source(source, musicians: false)
            return "\(source.strip) \(shown.tempo) \(shown.pitch_semitones) \(shown.cents) \(shown.position_s) \(shown.duration_s) \(shown.playing)"
        }
        take = WebState.take(target)
        self.setlist = setlist?.positionText
        tempo = target.liveTempo?.statusText
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.graph === rhs.graph && lhs.preset == rhs.preset && lhs.values == rhs.values && lhs.host == rhs.host && lhs.sources == rhs.sources
            && lhs.take == rhs.take && lhs.setlist == rhs.setlist && lhs.tempo == rhs.tempo
    }

    /// The host-side nodes of `target`'s running tree (their live values come from the show, not the engine's table).
    static func hostAddresses(of target: any LiveControlTarget) -> [ParameterAddress] {
        guard let graph = target.engine.graph else { return [] }
        return ParameterPath.tree(graph: graph, preset: target.currentPreset).nodes.compactMap { node in
            if case .host = node.address { return node.address }
            return nil
        }
    }
}
