// Raw strip-input record taps (before trim and units) for a sound-check take, with their own switch. Mixed: attach is non-realtime, the GraphRender helpers are realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension EngineGraph {
    /// Makes the audio thread copy strip `name`'s raw input (its ports, before trim and units) into `ring`
    /// while `control` is on. Every input tap of a graph shares one switch, separate from ``attachTap(_:to:control:)``'s,
    /// so a sound-check take and a mix recording start and stop independently. Call before ``Engine/install(_:crossfade:)``.
    public func attachInputTap(_ ring: TapRing, toStrip name: String, control: TapSwitch) throws(EngineError) {
        guard let index = description.strips.firstIndex(where: { $0.name == name }) else { throw .unknownTapPoint(name) }
        guard ring.channels == description.strips[index].channels else {
            throw .unsupportedChannelCount(name: name, channels: ring.channels)
        }
        if let existing = render.pointee.inputTapSwitch, existing != control.state {
            throw .unitSetupFailed(unit: "input tap", reason: "all input taps of a graph must share one switch")
        }
        render.pointee.stripInputTaps[index] = ring.state
        render.pointee.inputTapSwitch = control.state
        retainedTapObjects.append(ring)
        retainedTapObjects.append(control)
    }

    /// Every strip's first take channel, −1 until ``attachTake(_:)``.
    func takeChannelTable(count: Int) -> UnsafeMutablePointer<Int32> {
        let table = allocate(Int32.self, count: max(count, 1))
        table.initialize(repeating: -1, count: max(count, 1))
        return table
    }
}

extension GraphRender {
    /// Samples the input taps' switch once per chunk (the current graph only), beside ``sampleTaps()``.
    @inline(__always)
    func sampleInputTaps() {
        if isTapping, let control = inputTapSwitch { control.pointee.sample() }
    }

    /// Copies strip `index`'s raw input (``stripChannels``, before trim) into its input tap while the take records.
    @inline(__always)
    func tapStripInput(_ index: Int, channels: Int, frames: Int) {
        guard isTapping, let control = inputTapSwitch, control.pointee.isActive, let ring = stripInputTaps[index] else { return }
        ring.pointee.write(UnsafePointer(stripChannels), count: channels, frames: frames, gain: 1, frameGains: nil)
    }
}
