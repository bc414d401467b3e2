// A sound-check take feeding strips instead of their ports: one ring read once per chunk, per-strip live ↔ take crossfades. Mixed: setup non-realtime, the GraphRender helpers realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics

/// The take's realtime memory, allocated once by ``TakeSource``.
struct TakeSourceState {
    let ring: UnsafeMutablePointer<TapRingState>
    /// Per take channel: where this chunk's take audio lands, and where a crossfading strip mixes.
    let landing: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let mixed: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let channels: Int
    let maxFrames: Int
    /// Per strip request (any thread): 1 = play the take, 0 = live.
    let wantsTake: UnsafeMutablePointer<UnsafeAtomic<Int>>
    /// Per strip take share now, 0…1 (audio thread only); each graph moves it by its own ``GraphRender/takeFadeStep``.
    let share: UnsafeMutablePointer<Float>
}

/// Feeds strips from a multichannel take (the virtual sound check): a disk thread fills ``ring`` with every
/// take channel interleaved, the audio thread reads all of them at the start of each chunk, so every strip
/// on the take stays sample-aligned to the others. Each strip switches between its ports (`live`) and its
/// take channels with a linear crossfade of ``crossfadeSeconds``; strips not on the take stay live.
public final class TakeSource: @unchecked Sendable {
    /// The ring the disk thread fills (all take channels, interleaved).
    public let ring: TapRing
    /// Strip names in graph order and the take channel each one's first channel reads (nil: not on the take).
    public let channelOfStrip: [String: Int]
    /// The live ↔ take crossfade length.
    public static let crossfadeSeconds = 0.02
    let state: UnsafeMutablePointer<TakeSourceState>
    let strips: [String]

    /// A source for `strips` (show order) of which `channelOfStrip` are on a take of `channels` channels,
    /// for chunks of up to `maxFrames`; every strip starts on the take when `onTake`.
    public init(strips: [String], channelOfStrip: [String: Int], channels: Int, maxFrames: Int, onTake: Bool) {
        self.strips = strips
        self.channelOfStrip = channelOfStrip
        ring = TapRing(channels: channels, frames: 131_072)
        let landing = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(1, channels))
        let mixed = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(1, channels))
        for channel in 0..<channels {
            landing[channel] = .allocate(capacity: maxFrames)
            landing[channel].initialize(repeating: 0, count: maxFrames)
            mixed[channel] = .allocate(capacity: maxFrames)
            mixed[channel].initialize(repeating: 0, count: maxFrames)
        }
        let wants = UnsafeMutablePointer<UnsafeAtomic<Int>>.allocate(capacity: max(1, strips.count))
        let share = UnsafeMutablePointer<Float>.allocate(capacity: max(1, strips.count))
        for (index, name) in strips.enumerated() {
            let on = onTake && channelOfStrip[name] != nil
            wants.advanced(by: index).initialize(to: .create(on ? 1 : 0))
            share[index] = on ? 1 : 0
        }
        state = .allocate(capacity: 1)
        state.initialize(to: TakeSourceState(
            ring: ring.state, landing: landing, mixed: mixed, channels: channels, maxFrames: maxFrames,
            wantsTake: wants, share: share))
    }

    deinit {
        let take = state.pointee
        for channel in 0..<take.channels {
            take.landing[channel].deallocate()
            take.mixed[channel].deallocate()
        }
        take.landing.deallocate()
        take.mixed.deallocate()
        for index in 0..<strips.count { take.wantsTake[index].destroy() }
        take.wantsTake.deallocate()
        take.share.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Asks strip `name` to play the take (`true`) or its ports; takes effect at the next chunk with a crossfade.
    /// Returns false when the strip is not on the take.
    @discardableResult
    public func setOnTake(_ onTake: Bool, strip name: String) -> Bool {
        guard channelOfStrip[name] != nil, let index = strips.firstIndex(of: name) else { return false }
        state.pointee.wantsTake[index].store(onTake ? 1 : 0, ordering: .releasing)
        return true
    }

    /// Whether strip `name` was last asked to play the take.
    public func isOnTake(strip name: String) -> Bool {
        guard let index = strips.firstIndex(of: name) else { return false }
        return state.pointee.wantsTake[index].load(ordering: .relaxed) == 1
    }
}

extension EngineGraph {
    /// Makes the strips of `source` read the take (see ``TakeSource``). The graph must have the same strips
    /// in the same order and chunks no longer than the source's. Call before ``Engine/install(_:crossfade:)``.
    public func attachTake(_ source: TakeSource) throws(EngineError) {
        guard source.strips == description.strips.map(\.name) else {
            throw .unitSetupFailed(unit: "sound check", reason: "the take source was made for other strips")
        }
        guard maxFrames <= source.state.pointee.maxFrames else {
            throw .unitSetupFailed(unit: "sound check", reason: "chunks of \(maxFrames) frames exceed the take source's")
        }
        for (index, strip) in description.strips.enumerated() {
            guard let channel = source.channelOfStrip[strip.name] else { continue }
            guard channel + strip.channels <= source.ring.channels else { throw .unsupportedChannelCount(name: strip.name, channels: strip.channels) }
            render.pointee.takeChannels[index] = Int32(channel)
        }
        render.pointee.take = source.state
        // The crossfade lasts ``TakeSource/crossfadeSeconds`` at this graph's rate (a server restarted at another rate gets a new graph).
        render.pointee.takeFadeStep = Float(1 / max(1, TakeSource.crossfadeSeconds * sampleRate))
        retainedTapObjects.append(source)
    }
}

extension GraphRender {
    /// Start of a chunk: the current graph reads every take channel for this chunk at once.
    @inline(__always)
    func readTake(frames: Int) {
        guard isTapping, let take else { return }
        _ = take.pointee.ring.pointee.read(into: UnsafePointer(take.pointee.landing), offset: 0, frames: frames)
    }

    /// Replaces strip `index`'s `channels` live inputs in ``stripChannels`` by its take channels, or a
    /// crossfade between the two while its switch moves.
    @inline(__always)
    func mixTake(_ index: Int, channels: Int, frames: Int) {
        guard let take, takeChannels[index] >= 0 else { return }
        let first = Int(takeChannels[index])
        let target: Float = take.pointee.wantsTake[index].load(ordering: .relaxed) == 1 ? 1 : 0
        let start = take.pointee.share[index]
        if start == target {
            guard target == 1 else { return }
            for channel in 0..<channels { stripChannels[channel] = UnsafePointer(take.pointee.landing[first + channel]) }
            return
        }
        // A graph fading out holds the share where the incoming graph, which moves it, left it.
        let step = isTapping ? (target > start ? takeFadeStep : -takeFadeStep) : 0
        var share = start
        for channel in 0..<channels {
            share = start
            let live = stripChannels[channel], recorded = take.pointee.landing[first + channel], out = take.pointee.mixed[first + channel]
            for frame in 0..<frames {
                share = step > 0 ? min(target, share + step) : (step < 0 ? max(target, share + step) : share)
                out[frame] = live[frame] + (recorded[frame] - live[frame]) * share
            }
            stripChannels[channel] = UnsafePointer(out)
        }
        if isTapping { take.pointee.share[index] = share }
    }
}
