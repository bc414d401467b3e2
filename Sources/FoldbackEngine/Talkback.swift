// Talkback on the audio thread: presses, the dim of the buses a pressed talkback talks to, mixing the talk in. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

extension GraphRender {
    /// Presses (`isOn`) or releases talkback strip `index`: its gate opens or closes and the buses it talks
    /// to dim or come back, all on the smoothing ramp.
    mutating func setTalkback(ofStrip index: Int, isOn: Bool) {
        guard strips[index].isTalkback else { return }
        strips[index].isTalking = isOn
        retargetGates()   // retargets the dims too
    }

    /// Each bus with a talk input dims to the deepest dim of the pressed talkbacks talking to it, else 1.
    mutating func retargetDims() {
        for bus in 0..<busCount where buses[bus].talk != nil {
            var dim: Float = 1
            for strip in 0..<stripCount where strips[strip].isTalkback && strips[strip].isTalking && strips[strip].gate.target > 0 {
                let first = Int(strips[strip].firstSend)
                for send in first..<first + Int(strips[strip].sendCount) where Int(sends[send].bus) == bus {
                    dim = min(dim, strips[strip].talkbackDim)
                }
            }
            buses[bus].dim.setTarget(dim)
        }
    }

    /// Dims a bus's mix and adds its talk input, before the bus's units (nothing for a bus without one).
    func mixTalk(into bus: UnsafeMutablePointer<BusRender>, frames: Int) {
        guard let talk = bus.pointee.talk else { return }
        let start = bus.pointee.dim
        var ramp = start
        for channel in 0..<Int(bus.pointee.channels) {
            ramp = start
            let mix = bus.pointee.buffers[channel], voice = talk[channel]
            if ramp.isSettled {
                let dim = ramp.value
                if dim == 1 {
                    for frame in 0..<frames { mix[frame] += voice[frame] }
                } else {
                    for frame in 0..<frames { mix[frame] = mix[frame] * dim + voice[frame] }
                }
            } else {
                for frame in 0..<frames { mix[frame] = mix[frame] * ramp.next() + voice[frame] }
            }
        }
        bus.pointee.dim = ramp
    }
}
