// The realtime data of a built graph: plain structs in memory preallocated off-thread. Realtime (read and written by the audio thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import FoldbackDSP

/// A unit as the audio thread sees it.
struct UnitSlot {
    var functions: UnitRenderFunctions
    var state: UnsafeMutableRawPointer
    var inputChannels: Int32
    var outputChannels: Int32
    /// 0 = active, 1 = bypassed; ramps give the bypass crossfade.
    var bypass: LinearSmoother
    /// The parameter the unit bypasses itself with (see ``UnitRenderSlot/selfBypassParameter``), or −1.
    var selfBypassParameter: Int32
    /// Where the unit's output is copied each chunk while the graph it was continued from fades out
    /// (that graph's slot replays it; see `GraphHandover.swift`), or nil.
    var mirror: UnsafeMutablePointer<UnitMirror>? = nil
    /// Chunks this unit was skipped by silence gating (read by tests; each unit is written by one lane at a time).
    var gatedChunks = 0
    /// Its rest check passed and nothing has reached it since (cleared whenever it processes or a parameter
    /// or reset is applied to it): gating then only advances its clocks (see ``UnitRest``).
    var isKnownAtRest = false
    /// Frames its clocks are owed while known at rest (paid by ``GraphRender/wake(_:)``).
    var restFrames = 0
}

/// One source-channel → bus-channel path of a send, with its smoothed coefficient (send level × pan law).
struct SendTap {
    var sourceChannel: Int32
    var busChannel: Int32
    var coefficient: LinearSmoother
}

/// A strip's send: its level and the taps it feeds.
struct SendRender {
    var bus: Int32
    var isPreFader: Bool
    /// Send level, linear.
    var level: Float
    var firstTap: Int32
    var tapCount: Int32
    /// The send's own pan, −1…+1, used when ``hasOwnPan`` (else the strip's pan is).
    var pan: Float = 0
    var hasOwnPan = false
    /// The stereo width of a stereo strip's send into a stereo bus, 0 (mono sum) … 1 (as is) … 2 (see ``SendTapLaw``).
    var width: Float = 1
    /// Whether the send is switched off (its taps ramp to 0; ``level`` is kept for when it comes back).
    var isMuted = false
    /// The delay aligning this send with the slowest path into its bus (per bus channel), or nil for none.
    var delay: UnsafeMutablePointer<LookaheadDelay>? = nil
    /// Into a binaural bus: one source per strip channel (its taps give each channel's level, no pan law), the
    /// position the send is at, a `maxFrames` buffer for a channel × its gains, and the silent frames fed since the
    /// strip went silent (the sources play out their delays and filters, then rest with gating on). Nil sources otherwise.
    var binaural: UnsafeMutablePointer<BinauralSource>? = nil
    var position = BinauralPosition()
    var binauralInput: UnsafeMutablePointer<Float>? = nil
    var silentFrames = 0
    /// In a live engine, the sources' hand-over cells with the graph's ``BinauralBuildWorker`` (one per source), or
    /// nil: the sources build their filters themselves.
    var buildCells: UnsafeMutablePointer<BinauralBuildCell>? = nil
}

/// A strip: where its input comes from, its units and sends, fader and gates.
struct StripRender {
    var inputChannel: Int32
    var channels: Int32
    /// Channels after the units (a stereo unit can widen a mono strip).
    var outputChannels: Int32
    var firstUnit: Int32
    var unitCount: Int32
    var firstSend: Int32
    var sendCount: Int32
    /// Two ping-pong work buffers per channel side: [A0, A1, B0, B1], `maxFrames` each.
    var work: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Fader × its DCAs' gain, linear (the smoother moves to ``faderLinear`` × ``dcaGain``).
    var fader: LinearSmoother
    /// The strip's own fader, linear, and what its DCAs add, linear (0 when one is muted).
    var faderLinear: Float = 1
    var dcaGain: Float = 1
    /// Whether a mute group that is on holds the strip (it gates as its own mute does).
    var isGroupMuted = false
    /// Mute × solo × enable gate, 0…1.
    var gate: LinearSmoother
    var pan: Float
    var isMuted: Bool
    var isSoloed: Bool
    var isEnabled: Bool
    var meter: Int32
    /// The bus whose output is this strip's input (an effect return), or −1 for ports or a file.
    var returnBus: Int32 = -1
    /// Input trim into the units, linear. The sends scale by `sendTrim / trimAtSends` frame by frame: the trim
    /// as it reaches the sends and the trim they should hear (trim × compensation), both ramps starting
    /// `unitLatency` frames after the input's (through ``pendingFrames``), so a compensated move leaves every bus still.
    var trim: LinearSmoother
    var trimAtSends: LinearSmoother
    var sendTrim: LinearSmoother
    var unitLatency: Int32 = 0
    /// Targets of `trimAtSends` and `sendTrim` waiting for the units' latency to pass, and frames left (−1: none).
    var pendingTrim: Float = 1
    var pendingSendTrim: Float = 1
    var pendingFrames: Int32 = -1
    /// The trim and the compensation as set, dB (see ``ParameterAddress/stripTrim(strip:)``).
    var trimDB: Float = 0
    var compensationDB: Float = 0
    /// A talkback strip (gated by ``isTalking`` alone, solo-safe), whether it is pressed, and its dim, linear.
    var isTalkback = false
    var isTalking = false
    var talkbackDim: Float = 1
    /// Chunks whose signal after the units was exact +0.0, so its sends added nothing (silence gating; read by tests).
    var silentChunks = 0
}

/// A bus: its mix buffers, units, output gain and limiter.
struct BusRender {
    /// The first output port channel; beyond every port for an effect bus (it has none).
    var outputChannel: Int32
    var channels: Int32
    /// One mix buffer per channel, `maxFrames` each.
    var buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Output gain × mute, linear.
    var gain: LinearSmoother
    /// Gain as set, linear (kept so unmuting restores it).
    var gainLinear: Float
    var isMuted: Bool
    var meter: Int32
    /// The brickwall safety limiter after the gain, if the bus has one.
    var limiter: UnsafeMutablePointer<LimiterKernel>?
    /// The bus's units in ``GraphRender/units`` and their ping-pong work buffers (as a strip's).
    var firstUnit: Int32 = 0
    var unitCount: Int32 = 0
    var work: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Whether a return strip reads this bus: its final output is then kept in ``buffers`` as well.
    var isReturned = false
    /// Where talkback sends mix (one buffer per channel), or nil when no talkback talks to this bus; the
    /// rest of the mix is scaled by ``dim`` before the talk is added, ahead of the bus's units.
    var talk: UnsafeMutablePointer<UnsafeMutablePointer<Float>>? = nil
    var dim: LinearSmoother
    /// Chunks its limiter was skipped at rest on exact +0.0 (silence gating; read by tests).
    var limiterGatedChunks = 0
    /// Whether its output was exact +0.0 with its limiter (if any) at rest in the last chunk rendered in full.
    var restedLastChunk = false
    /// A binaural bus's room, added to the mix before talkback and the units, if it has one.
    var room: UnsafeMutablePointer<BinauralRoom>? = nil
}

/// A whole graph for the audio thread: flat run lists of strips, units, sends, taps and buses.
struct GraphRender {
    var strips: UnsafeMutablePointer<StripRender>
    var stripCount: Int
    var units: UnsafeMutablePointer<UnitSlot>
    var sends: UnsafeMutablePointer<SendRender>
    var taps: UnsafeMutablePointer<SendTap>
    var buses: UnsafeMutablePointer<BusRender>
    var busCount: Int
    var inputChannelCount: Int
    var outputChannelCount: Int
    var maxFrames: Int
    var soloCount: Int
    /// DCA and mute groups (see `StripGroups.swift`).
    var groups: StripGroupsRender
    /// `maxFrames` zeros, read in place of a missing input.
    var silence: UnsafeMutablePointer<Float>
    /// The doorbell of the graph's ``BinauralBuildWorker`` (fb_doorbell.h), rung after asking it for a build, if it has one.
    var binauralBell: OpaquePointer? = nil
    /// Per-frame gate and gate × fader of the strip being mixed, `maxFrames` each.
    var gateFrames: UnsafeMutablePointer<Float>
    var postFaderFrames: UnsafeMutablePointer<Float>
    /// The strip's current channels while it renders (capacity ``maxUnitChannels``).
    var stripChannels: UnsafeMutablePointer<UnsafePointer<Float>>
    /// Channel pointer tables handed to units (capacity ``maxUnitChannels``).
    var unitInputs: UnsafeMutablePointer<UnsafePointer<Float>>
    var unitOutputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var meters: MeterBank
    /// Record taps per strip and per bus (nil = none), their shared switch, and whether this graph is the
    /// current one (a graph fading out neither taps nor reads file sources): see `EngineGraph+Taps.swift`.
    var stripTaps: UnsafeMutablePointer<UnsafeMutablePointer<TapRingState>?>
    var busTaps: UnsafeMutablePointer<UnsafeMutablePointer<TapRingState>?>
    var tapSwitch: UnsafeMutablePointer<TapSwitchState>?
    /// Analysis taps per bus (loudness meters; nil = none): always on while this graph is the current one.
    var busAnalysisTaps: UnsafeMutablePointer<UnsafeMutablePointer<TapRingState>?>
    var isTapping = true
    /// The spectrum analyser's tap (nil = none), this graph's serial for it, and the point it taps in this chunk
    /// (kind 0 = none): see `AnalyserTap.swift`.
    var analyser: UnsafeMutablePointer<AnalyserTapState>? = nil
    var analyserSerial = 0
    var analyserKind = 0
    var analyserIndex = 0
    /// File sources per strip (nil = the strip reads its input ports) and their landing buffers, 2 per strip.
    var stripSources: UnsafeMutablePointer<UnsafeMutablePointer<TapRingState>?>
    var sourceBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Raw-input record taps per strip (nil = none) and their own switch: see `StripInputTaps.swift`.
    var stripInputTaps: UnsafeMutablePointer<UnsafeMutablePointer<TapRingState>?>
    var inputTapSwitch: UnsafeMutablePointer<TapSwitchState>? = nil
    /// The sound-check take (nil = none) and each strip's first take channel (−1: live only): see `TakeSource.swift`.
    var take: UnsafeMutablePointer<TakeSourceState>? = nil
    var takeChannels: UnsafeMutablePointer<Int32>
    /// The take share's change per frame of a live ↔ take crossfade at this graph's rate.
    var takeFadeStep: Float = 0
    /// Units continued from the graph at `predecessor` (its render, nil for none), applied when this graph
    /// takes over: see `GraphHandover.swift`.
    var handovers: UnsafeMutablePointer<UnitHandover>
    var handoverCount: Int
    var predecessor: UnsafeMutableRawPointer?
    /// The render order: a strip index `i` as `i`, bus `b` as `-(b + 1)` (see ``RoutingPlan``).
    var order: UnsafeMutablePointer<Int32>
    var orderCount: Int
    /// Two `maxFrames` buffers where a delayed send is mixed before its delay line.
    var sendScratch: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// The per-frame trim and send compensation (`sendTrim / trim`) of the strip being rendered, and the
    /// per-frame send gains with compensation while it ramps (its trimmed input goes to work buffers B).
    var trimFrames: UnsafeMutablePointer<Float>
    var compensationFrames: UnsafeMutablePointer<Float>
    var compensatedPre: UnsafeMutablePointer<Float>
    var compensatedPost: UnsafeMutablePointer<Float>
    /// The send compensation of the strip being rendered when steady (`sendTrim / trim`), and whether it ramps this chunk.
    var compensation: Float = 1
    var isCompensationRamping = false

    /// The cue output, or nil when the graph has none (see `CueRenderer.swift`).
    var cue: UnsafeMutablePointer<CueRender>? = nil

    /// What each strip and bus left for its sends and the cue in this chunk (see `StripOutput.swift`).
    var stripOutputs: UnsafeMutablePointer<StripOutput>
    var busOutputs: UnsafeMutablePointer<BusOutput>
    /// The render order as stages the render team shares out (see `RenderStages.swift`).
    var stages: RenderStages
    /// Scratch of render lanes 1… (lane 0, the callback thread, uses this graph's own), and per strip four
    /// `maxFrames` buffers for its frame-by-frame send gains in a parallel render; nil until prepared
    /// (see ``EngineGraph/prepareLanes(_:)``).
    var lanes: UnsafeMutablePointer<RenderScratch>? = nil
    var laneCount = 0
    var stripGainFrames: UnsafeMutablePointer<Float>? = nil
    /// This lane's slot of the engine's ``UnitActivity`` (lane 0's in the graph itself; set when the engine takes the graph).
    var activeUnit: UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>? = nil

    /// Whether chains at rest on exact zeros skip their units (see ``GraphDescription/isGatingEnabled``).
    var isGatingEnabled = true
    /// Whether the whole graph rested in the last chunk, so a silent chunk may skip it (see `GraphRest.swift`),
    /// and the chunks it skipped so (read by tests).
    var isAtRest = false
    var restChunks = 0

    /// The most channels a unit may read or write.
    static let maxUnitChannels = 8
}
