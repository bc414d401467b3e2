// What each role's page is pushed of the web state and the meters: the engineer everything, a musician their bus's part. Non-realtime (the push thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension WebState {
    /// The state `role`'s page is pushed: the whole state for the engineer. A musician of `bus` gets the nodes
    /// they may set (``Parameter/musician`` is `bus`: the sends into it, its level and mute), the strips sending
    /// into it with that send alone (no units; a file source only where the preset lets musicians see it, read only),
    /// the show tempo (with `musicians_tap` saying whether their page may tap it),
    /// their bus alone (no units), the preset, setlist and sound-check line; no cue output, groups or unit outputs.
    /// Keys stay as the engineer's, so one page script reads both.
    func seen(by role: WebRole) -> WebState {
        guard case let .musician(bus) = role else { return self }
        var mine = self
        mine.parameters = parameters.filter { $0.musician == bus }
        mine.strips = strips.compactMap { strip in
            let sends = strip.sends.filter { $0.bus == bus }
            guard !sends.isEmpty else { return nil }
            var feeding = strip
            feeding.sends = sends
            feeding.units = []
            if feeding.source?.musicians != true { feeding.source = nil }
            return feeding
        }
        mine.buses = buses.filter { $0.name == bus }.map { own in
            var own = own
            own.units = []
            return own
        }
        mine.cue = nil
        mine.groups = []
        mine.outputs = []
        return mine
    }
}

extension WebMeters {
    /// The meters `role`'s page is pushed: all of them for the engineer; for a musician, those of the strips
    /// and bus in `state` (their ``WebState/seen(by:)``), their bus's loudness and dose, the load and xruns, no
    /// gain reductions, notches or unit outputs (their page opens no unit editor).
    func seen(by role: WebRole, state: WebState) -> WebMeters {
        guard case let .musician(bus) = role else { return self }
        var mine = self
        let feeding = Set(state.strips.map(\.name))
        mine.strips = strips.filter { feeding.contains($0.key) }
        mine.buses = buses.filter { $0.key == bus }
        mine.loudness = loudness.filter { $0.key == bus }
        mine.dose = dose.filter { $0.key == bus }
        mine.gr = [:]
        mine.notches = [:]
        mine.outputs = [:]
        return mine
    }
}
