// The reverb tank at rest, for silence gating: dormant (exact silence), steady coefficients, predelay still. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension ReverbTank {
    /// Whether rendering zeros would write exact +0.0 and only move the tick clock: the tank is dormant (its
    /// memory exact zeros), nothing ramps, the coefficients are `tickEnd`'s, the dry level is not negative,
    /// no statistics are pending and the predelay sits at `predelay` with no crossfade.
    mutating func isAtRest(tickEnd: Coefficients, predelay: Int) -> Bool {
        guard isDormant, !isRamping, lineEnergy == .zero, diffusedEnergy == 0, !inputHeard,
              output.fade >= 1, output.tap == predelay, current.levels[1].sign == .plus else { return false }
        return step.loopGains == .zero && step.poles == .zero && step.levels == .zero
            && current.lengths == tickEnd.lengths && current.loopGains == tickEnd.loopGains
            && current.poles == tickEnd.poles && current.levels == tickEnd.levels
    }

    /// Moves the tick clock by `frames` (within one tick), as a dormant ``render(left:right:outputLeft:outputRight:count:)`` does.
    mutating func advanceAtRest(frames: Int) {
        tickFrame += frames
    }
}
