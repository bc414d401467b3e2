// The EQ kernel's side of its cached cascade: gathering the steady bands' sections, planning them, and handing the state back before a band changes. Realtime-safe (no allocation).
// SPDX-License-Identifier: GPL-3.0-or-later

extension EQKernel {
    /// Gathers and plans the cascade when no band is fading (a mono plan of one ``MixedTen`` run then
    /// filters straight from the input to the output).
    mutating func planIfSteady() {
        if (0..<bandCount).contains(where: { bands[$0].fadeFrames > 0 }) { return }
        var gathered = 0
        for index in 0..<bandCount { gather(index, at: &gathered) }
        plan.build(sections, count: gathered, isMono: channels == 1)
        isPlanValid = true
    }

    /// Gathers band `index`'s sections, with their state, at `sections[gathered]` (none if it is off).
    func gather(_ index: Int, at gathered: inout Int) {
        let band = bands + index
        if band.pointee.mix == 0 { return }
        sections[gathered] = EQSection(coefficients: band.pointee.first, s1: band.pointee.state.0,
                                       s2: band.pointee.state.1, owner: 2 * index)
        gathered += 1
        if band.pointee.sectionCount == 2 {
            sections[gathered] = EQSection(coefficients: band.pointee.second, s1: band.pointee.state.2,
                                           s2: band.pointee.state.3, owner: 2 * index + 1)
            gathered += 1
        }
    }

    /// Hands the plan's state back to the bands and drops the plan (before a band's coefficients,
    /// enabling or state change; the next block plans afresh).
    mutating func invalidatePlan() {
        guard isPlanValid else { return }
        plan.store(sections)
        storeState(plan.count)
        isPlanValid = false
    }

    /// Stores the state of the first `gathered` gathered sections back into their bands.
    func storeState(_ gathered: Int) {
        for index in 0..<gathered {
            let section = sections[index]
            let band = bands + section.owner / 2
            if section.owner % 2 == 0 {
                band.pointee.state.0 = section.s1
                band.pointee.state.1 = section.s2
            } else {
                band.pointee.state.2 = section.s1
                band.pointee.state.3 = section.s2
            }
        }
    }
}
