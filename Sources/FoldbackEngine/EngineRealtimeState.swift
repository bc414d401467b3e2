// The engine's realtime state: IO tables, current and fading graphs, rings and crossfade scratch. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics

/// Per-cycle IO pointer tables: the backend points `inputs[i]` / `outputs[i]` at channel i's buffers
/// before each cycle (nil for a channel it does not have).
public struct RealtimeIO {
    /// Input channel buffers, `inputCount` valid entries.
    public var inputs: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// Output channel buffers, `outputCount` valid entries.
    public var outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    /// Valid input entries (at most the engine's input capacity).
    public var inputCount: Int
    /// Valid output entries (at most the engine's output capacity).
    public var outputCount: Int
}

/// How a newly installed graph replaces the current one.
public struct Crossfade: Sendable, Hashable {
    /// The fade's gain law.
    public enum Law: UInt8, Sendable, BitwiseCopyable {
        /// Gains sum to 1: right for correlated material (reloading the same chain).
        case equalGain
        /// Powers sum to 1 (sin/cos): right for uncorrelated material (a different preset).
        case equalPower
    }

    /// Fade length, seconds (0 = switch at the cycle boundary).
    public var duration: Double
    /// Gain law.
    public var law: Law

    /// A fade of `duration` seconds with `law`.
    public init(duration: Double, law: Law) {
        self.duration = duration
        self.law = law
    }

    /// The longest fade, seconds.
    public static let maxDuration: Double = 10

    /// No fade: the new graph takes over at the cycle boundary (a first graph, an offline render).
    public static let none = Crossfade(duration: 0, law: .equalGain)

    /// A 10 ms equal-gain fade: inaudible for a reload of the same chain.
    public static let quick = Crossfade(duration: 0.010, law: .equalGain)
}

/// A graph swap request as it travels through the ring.
struct GraphSwap: BitwiseCopyable {
    var graph: UnsafeMutablePointer<GraphRender>
    var fadeFrames: Int32
    var law: Crossfade.Law
}

/// Everything the audio thread touches, allocated once by ``Engine``.
struct EngineRealtimeState {
    let io: UnsafeMutablePointer<RealtimeIO>
    var current: UnsafeMutablePointer<GraphRender>?
    var fadingOut: UnsafeMutablePointer<GraphRender>?
    var fadePosition: Int
    var fadeFrames: Int
    var fadeLaw: Crossfade.Law
    let swaps: SPSCRing<GraphSwap>
    let retired: SPSCRing<UnsafeMutablePointer<GraphRender>>
    let parameters: SPSCRing<ParameterChange>
    /// Outputs the fading-out graph renders into: one `chunkFrames` buffer per output channel.
    let fadeOutputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    /// The longest chunk rendered at once.
    let chunkFrames: Int
    /// Per-frame fade-in and fade-out gains of the current chunk, `chunkFrames` each.
    let fadeInGains: UnsafeMutablePointer<Float>
    let fadeOutGains: UnsafeMutablePointer<Float>
    /// Cycles run, and changes dropped because their graph was no longer current (read by any thread).
    let cycles: UnsafeAtomic<Int>
    let droppedChanges: UnsafeAtomic<Int>
    /// The current graph's render address (0 before the first), published for ``Engine/runningGraph``.
    let currentGraph: UnsafeAtomic<Int>
    /// The render team sharing each cycle's work (nil with one render thread).
    let team: OpaquePointer?
}
