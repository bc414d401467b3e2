// The off-thread description of a graph: strips, their units and sends, and buses. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP

/// Everything needed to build an ``EngineGraph``: strips in input-port order, buses in output-port order.
public struct GraphDescription: Sendable {
    /// The strips, in input-port order.
    public var strips: [StripDescription]
    /// The output buses, in output-port order.
    public var buses: [BusDescription]
    /// The engineer's stereo cue output (ports `cue_L`, `cue_R` after every bus's), or nil for none.
    public var cue: CueDescription?
    /// DCA groups over the strips (see ``DCADescription``).
    public var dcas: [DCADescription] = []
    /// Mute groups over the strips (see ``MuteGroupDescription``).
    public var muteGroups: [MuteGroupDescription] = []
    /// Silence gating (`gating` in `[preset]`): a strip or bus whose input is exact zeros and whose units are all
    /// at rest (``UnitRest``) skips its units, with output bit-identical to running them. On unless switched off.
    public var isGatingEnabled = true

    /// A graph of `strips` mixing into `buses`.
    public init(strips: [StripDescription], buses: [BusDescription]) {
        self.strips = strips
        self.buses = buses
    }
}

/// The cue output: a stereo pair the engineer listens on, fed by any selection of bus outputs and strip
/// PFL/AFL taps (``ParameterAddress/cueBus(bus:)`` and the like), with its own level and safety limiter.
public struct CueDescription: Sendable, Hashable {
    /// The cue output's level, dB.
    public var gainDB: Float
    /// Its safety limiter, after the level; zero-latency by default, so a cued bus stays sample-aligned.
    public var limiter: LimiterSettings

    /// A cue output at `gainDB` with `limiter`.
    public init(gainDB: Float = 0, limiter: LimiterSettings = LimiterSettings(ceilingDB: -1, releaseMs: 50, mode: .zeroLatency)) {
        self.gainDB = gainDB
        self.limiter = limiter
    }
}

/// One input channel strip: units in order, then fader, pan, gates and sends.
public struct StripDescription: Sendable {
    /// Name; ports are derived from it (see ``PortNaming``).
    public var name: String
    /// 1 (mono) or 2 (stereo) input channels.
    public var channels: Int
    /// Units processed in order, each with an id unique in the strip.
    public var units: [any EngineUnit]
    /// Identifiers of ``units`` (same order), for addressing and reports.
    public var unitIDs: [String]
    /// Which of ``units`` start bypassed (same order; missing entries mean active).
    public var bypassedUnits: [Bool]
    /// Sends to buses.
    public var sends: [SendDescription]
    /// Fader, dB.
    public var gainDB: Float
    /// Pan, −1…+1: constant-power for mono strips, balance for stereo ones.
    public var pan: Float
    /// Muted strips are silent in every bus.
    public var isMuted: Bool
    /// Solo-in-place: when any strip is soloed, only soloed strips are heard.
    public var isSoloed: Bool
    /// Disabled strips are silent and skip their units.
    public var isEnabled: Bool
    /// Whether the strip plays a file (``EngineGraph/attachSource(_:toStrip:)``) instead of having input ports.
    public var isFileSource = false
    /// The bus whose output this strip takes as its input (an effect return), or nil for input ports.
    /// A return has no input ports; it renders after that bus in the same cycle.
    public var returnBus: Int?
    /// Input trim, dB, applied before the units (see ``ParameterAddress/stripTrim(strip:)``).
    public var trimDB: Float = 0
    /// A talkback strip: silent until pressed (``ParameterAddress/talkback(strip:)``); its sends feed the
    /// talk input of their buses, which dims the rest of each such bus by ``talkbackDimDB`` while pressed.
    public var isTalkback = false
    /// How far a pressed talkback dims the other content of the buses it talks to, dB (≤ 0).
    public var talkbackDimDB: Float = -12

    /// Whether the strip has JACK input ports (neither a file source nor a return).
    public var hasInputPorts: Bool { !isFileSource && returnBus == nil }

    /// A strip; `unitIDs` default to the units' type names.
    public init(
        name: String, channels: Int, units: [any EngineUnit] = [], unitIDs: [String]? = nil,
        bypassedUnits: [Bool] = [], sends: [SendDescription] = [], gainDB: Float = 0, pan: Float = 0,
        isMuted: Bool = false, isSoloed: Bool = false, isEnabled: Bool = true
    ) {
        self.name = name
        self.channels = channels
        self.units = units
        self.unitIDs = unitIDs ?? units.map(\.typeName)
        self.bypassedUnits = bypassedUnits
        self.sends = sends
        self.gainDB = gainDB
        self.pan = pan
        self.isMuted = isMuted
        self.isSoloed = isSoloed
        self.isEnabled = isEnabled
    }
}

/// A strip's send to a bus.
public struct SendDescription: Sendable {
    /// Index of the bus in ``GraphDescription/buses``.
    public var bus: Int
    /// Send level, dB.
    public var gainDB: Float
    /// Pre-fader sends ignore the strip fader (but not mute, solo or enable).
    public var isPreFader: Bool
    /// The send's own pan into a stereo bus, −1…+1 (constant-power for a mono strip, balance for a stereo
    /// one, pre- or post-fader alike), or nil to follow the strip's pan.
    public var pan: Float?
    /// A stereo strip's width into a stereo bus, 0 (mono sum) … 1 (as is) … 2 (side doubled), or nil for 1.
    public var width: Float?
    /// Whether the send starts switched off (its level kept for when it is switched on).
    public var isMuted: Bool
    /// Where the send's source sits around the listener in a binaural bus (see ``BusDescription/hrtf``); a stereo
    /// strip is two points ``width`` × 30° either side of it. Ignored by other buses.
    public var position = BinauralPosition()

    /// A send to bus number `bus`.
    public init(bus: Int, gainDB: Float = 0, isPreFader: Bool = false, pan: Float? = nil, width: Float? = nil, isMuted: Bool = false) {
        self.bus = bus
        self.gainDB = gainDB
        self.isPreFader = isPreFader
        self.pan = pan
        self.width = width
        self.isMuted = isMuted
    }
}

/// An output bus.
public struct BusDescription: Sendable {
    /// Name; ports are derived from it (see ``PortNaming``).
    public var name: String
    /// 1 (mono) or 2 (stereo) output channels.
    public var channels: Int
    /// Output gain, dB.
    public var gainDB: Float
    /// A muted bus outputs silence.
    public var isMuted: Bool
    /// The brickwall safety limiter after the bus gain, or nil for none.
    public var limiter: LimiterSettings?
    /// Units processed in order on the summed bus, before the gain and the limiter.
    public var units: [any EngineUnit] = []
    /// Identifiers of ``units`` (same order), unique in the bus.
    public var unitIDs: [String] = []
    /// Which of ``units`` start bypassed (same order; missing entries mean active).
    public var bypassedUnits: [Bool] = []
    /// Whether the bus has JACK output ports; an effect bus (false) only feeds return strips.
    public var hasOutput = true
    /// Whether faster paths into the bus are delayed so everything arrives sample-aligned.
    public var isCompensated = true
    /// The HRTF set of a binaural bus (stereo only, at the graph's sample rate): each send renders through it at its
    /// own ``SendDescription/position`` instead of being panned. Nil for an ordinary bus.
    public var hrtf: HRIRSet?
    /// The level of a binaural bus's room (``BinauralRoom``: early reflections and a short tail added after its
    /// sources' sum), dB, or nil for no room.
    public var roomDB: Float?

    /// A bus.
    public init(
        name: String, channels: Int, gainDB: Float = 0, isMuted: Bool = false, limiter: LimiterSettings? = nil,
        units: [any EngineUnit] = [], unitIDs: [String]? = nil, bypassedUnits: [Bool] = [], hasOutput: Bool = true,
        isCompensated: Bool = true
    ) {
        self.name = name
        self.channels = channels
        self.gainDB = gainDB
        self.isMuted = isMuted
        self.limiter = limiter
        self.units = units
        self.unitIDs = unitIDs ?? units.map(\.typeName)
        self.bypassedUnits = bypassedUnits
        self.hasOutput = hasOutput
        self.isCompensated = isCompensated
    }
}

/// How a bus limiter trades latency for transparency on transients.
public enum LimiterMode: String, Sendable, Hashable, CaseIterable {
    /// Looks ahead (1.5 ms by default) and ramps the gain down before a peak arrives: clean transients,
    /// the lookahead is the bus's latency.
    case lookahead
    /// No lookahead, no latency: the gain drops on the first sample over the ceiling (the rising edge up to
    /// the peak is held at the ceiling) and then releases as usual. The ceiling holds all the same.
    case zeroLatency = "zero_latency"

    /// The preset spelling, `lookahead` or `zero_latency`.
    public var name: String { rawValue }
}

/// A bus limiter's settings: no output sample exceeds the ceiling; the lookahead is the bus's latency.
public struct LimiterSettings: Sendable, Hashable {
    /// The default lookahead of ``LimiterMode/lookahead``, milliseconds.
    public static let defaultLookaheadMs: Float = 1.5

    /// Ceiling, dBFS.
    public var ceilingDB: Float
    /// Release time, milliseconds.
    public var releaseMs: Float
    /// Lookahead, milliseconds (at most 2); 0 is ``LimiterMode/zeroLatency``.
    public var lookaheadMs: Float

    /// Limiter settings; the defaults are Foldback's: −1 dBFS, 50 ms release, 1.5 ms lookahead.
    public init(ceilingDB: Float = -1, releaseMs: Float = 50, lookaheadMs: Float = defaultLookaheadMs) {
        self.ceilingDB = ceilingDB
        self.releaseMs = releaseMs
        self.lookaheadMs = min(max(lookaheadMs, 0), 2)
    }

    /// Limiter settings in `mode`: the default lookahead, or none.
    public init(ceilingDB: Float = -1, releaseMs: Float = 50, mode: LimiterMode) {
        self.init(ceilingDB: ceilingDB, releaseMs: releaseMs, lookaheadMs: mode == .zeroLatency ? 0 : Self.defaultLookaheadMs)
    }

    /// ``LimiterMode/zeroLatency`` without lookahead, else ``LimiterMode/lookahead``.
    public var mode: LimiterMode { lookaheadMs > 0 ? .lookahead : .zeroLatency }

    /// The latency the limiter adds at `sampleRate`, in frames (its lookahead, as the kernel rounds it).
    public func latencyFrames(sampleRate: Double) -> Int {
        Int((Double(lookaheadMs) * sampleRate / 1000).rounded())
    }
}
