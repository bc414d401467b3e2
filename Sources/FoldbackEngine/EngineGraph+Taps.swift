// Attaches record taps and file sources to a graph before it is installed; the audio-thread tap writes. Mixed: attach is non-realtime, the GraphRender helpers are realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Where a record tap listens.
public enum TapPoint: Sendable, Hashable {
    /// A bus's final output: after its gain and limiter, exactly what its ports carry.
    case bus(String)
    /// A strip's post-fader signal (after its units, gates and fader, before pan and sends).
    case strip(String)
    /// A strip's raw input: its ports before trim and units (a sound-check take; see ``EngineGraph/attachInputTap(_:toStrip:control:)``).
    case stripInput(String)
}

extension EngineGraph {
    /// Makes the audio thread copy the signal at `point` into `ring` while `control` is on.
    /// Call before ``Engine/install(_:crossfade:)``. Every tap of a graph shares one switch.
    public func attachTap(_ ring: TapRing, to point: TapPoint, control: TapSwitch) throws(EngineError) {
        if case .stripInput(let name) = point { return try attachInputTap(ring, toStrip: name, control: control) }
        let render = render
        if let existing = render.pointee.tapSwitch, existing != control.state {
            throw .unitSetupFailed(unit: "record tap", reason: "all taps of a graph must share one switch")
        }
        switch point {
        case .bus(let name):
            guard let index = description.buses.firstIndex(where: { $0.name == name }) else { throw .unknownTapPoint(name) }
            render.pointee.busTaps[index] = ring.state
        case .strip(let name):
            guard let index = description.strips.firstIndex(where: { $0.name == name }) else { throw .unknownTapPoint(name) }
            render.pointee.stripTaps[index] = ring.state
        case .stripInput:
            return
        }
        render.pointee.tapSwitch = control.state
        retainedTapObjects.append(ring)
        retainedTapObjects.append(control)
    }

    /// Makes the audio thread copy bus `name`'s final output into `ring` in every chunk while this graph is
    /// the current one, whatever the record switch says (loudness and other analysis on a worker thread).
    /// The ring must have as many channels as the bus. Call before ``Engine/install(_:crossfade:)``.
    public func attachAnalysisTap(_ ring: TapRing, toBus name: String) throws(EngineError) {
        guard let index = description.buses.firstIndex(where: { $0.name == name }) else { throw .unknownTapPoint(name) }
        guard ring.channels == description.buses[index].channels else {
            throw .unsupportedChannelCount(name: name, channels: ring.channels)
        }
        render.pointee.busAnalysisTaps[index] = ring.state
        retainedTapObjects.append(ring)
    }

    /// Makes strip `name` read its input from `ring` (filled by a disk thread) instead of its input ports.
    /// The ring must have as many channels as the strip. Call before ``Engine/install(_:crossfade:)``.
    public func attachSource(_ ring: TapRing, toStrip name: String) throws(EngineError) {
        guard let index = description.strips.firstIndex(where: { $0.name == name }) else { throw .unknownTapPoint(name) }
        guard ring.channels == description.strips[index].channels else {
            throw .unsupportedChannelCount(name: name, channels: ring.channels)
        }
        render.pointee.stripSources[index] = ring.state
        for channel in 0..<ring.channels {
            let buffer = allocate(Float.self, count: maxFrames)
            buffer.initialize(repeating: 0, count: maxFrames)
            render.pointee.sourceBuffers[index * 2 + channel] = buffer
        }
        retainedTapObjects.append(ring)
    }
}

extension GraphRender {
    /// Samples the record switch and the analyser's selection once per chunk (fading-out graphs never tap).
    @inline(__always)
    mutating func sampleTaps() {
        sampleAnalyser()
        guard let control = tapSwitch else { return }
        if isTapping { control.pointee.sample() }
    }

    /// Whether taps write in this chunk.
    @inline(__always)
    var tapsActive: Bool { isTapping && (tapSwitch?.pointee.isActive ?? false) }

    /// Copies strip `index`'s post-fader signal into its tap: `stripChannels` × (`frameGains` or `gain`).
    @inline(__always)
    func tapStrip(_ index: Int, channels: Int, frames: Int, gain: Float, frameGains: UnsafePointer<Float>?) {
        guard tapsActive, let ring = stripTaps[index] else { return }
        ring.pointee.write(UnsafePointer(stripChannels), count: channels, frames: frames, gain: gain, frameGains: frameGains)
    }

    /// Copies a bus's final output (`channels` pointers in `unitInputs`) into its analysis tap, the analyser's
    /// when it listens there and, while recording, its record tap. `isSilent`: the output is exact +0.0 (the
    /// taps write zeros, which costs nothing once a ring holds only zeros).
    @inline(__always)
    func tapBus(_ index: Int, channels: Int, frames: Int, isSilent: Bool = false) {
        tapAnalyserBus(index, channels: channels, frames: frames)
        let count = isSilent ? 0 : channels
        if isTapping, let analysis = busAnalysisTaps[index] {
            analysis.pointee.write(UnsafePointer(unitInputs), count: count, frames: frames, gain: 1, frameGains: nil)
        }
        guard tapsActive, let ring = busTaps[index] else { return }
        ring.pointee.write(UnsafePointer(unitInputs), count: count, frames: frames, gain: 1, frameGains: nil)
    }

    /// Points the strip's channels at its file source's next `frames` frames; false when the strip
    /// takes its input from ports. An empty ring plays silence and counts an underrun.
    @inline(__always)
    func readSource(_ strip: UnsafeMutablePointer<StripRender>, index: Int, frames: Int) -> Bool {
        guard let ring = stripSources[index] else { return false }
        let landing = sourceBuffers + index * 2
        guard isTapping else {   // a graph fading out leaves the stream to the incoming one
            for channel in 0..<Int(strip.pointee.channels) { stripChannels[channel] = UnsafePointer(silence) }
            return true
        }
        _ = ring.pointee.read(into: UnsafePointer(landing), offset: 0, frames: frames)
        for channel in 0..<Int(strip.pointee.channels) { stripChannels[channel] = UnsafePointer(landing[channel]) }
        return true
    }
}

extension EngineGraph {
    /// A table of `count` nil pointers, freed with the graph.
    func nilTable<Pointee>(count: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<Pointee>?> {
        let table = allocate(UnsafeMutablePointer<Pointee>?.self, count: count)
        table.initialize(repeating: nil, count: max(count, 1))
        return table
    }

    /// The per-strip source landing table, every entry at `silence` until a source is attached.
    func sourceTable(count: Int, silence: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<UnsafeMutablePointer<Float>> {
        let table = allocate(UnsafeMutablePointer<Float>.self, count: count)
        table.initialize(repeating: silence, count: max(count, 1))
        return table
    }
}

extension EngineGraph {
    /// The channels a tap at `point` records (a strip's count after its units), or nil if there is no such strip or bus.
    public func tapChannels(at point: TapPoint) -> Int? {
        switch point {
        case .bus(let name):
            return description.buses.first { $0.name == name }?.channels
        case .strip(let name):
            guard let index = description.strips.firstIndex(where: { $0.name == name }) else { return nil }
            return Int(render.pointee.strips[index].outputChannels)
        case .stripInput(let name):
            return description.strips.first { $0.name == name }?.channels
        }
    }
}
