// One input strip of a preset (`[[strip]]`) and its sends (`[[strip.send]]`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP

/// An input strip: JACK input ports, a chain of units, a fader and pan, and sends to buses.
public struct StripSpec: Sendable {
    /// The strip name; it also names the input ports (see `PortNaming.inputPortNames`).
    public var name: String
    /// 1 (mono) or 2 (stereo).
    public var channels: Int
    /// The fader, in dB (−144…+24).
    public var gainDB: Float
    /// −1 (left) … +1 (right). Constant-power pan for mono strips, balance for stereo strips.
    public var pan: Float
    /// Whether the strip is muted.
    public var isMuted: Bool
    /// Whether the strip is soloed.
    public var isSoloed: Bool
    /// Whether the strip processes audio at all.
    public var isEnabled: Bool
    /// Whether a song change keeps everything of this strip as set live (`recall_safe = true`).
    public var isRecallSafe = false
    /// For each input port, in channel order, the JACK ports to connect to it.
    /// Always has `channels` elements; an empty element leaves that port unconnected.
    public var connections: [[String]]
    /// The processing units, in processing order.
    public var units: [UnitSpec]
    /// The sends to buses, in file order; at most one per bus.
    public var sends: [SendSpec]
    /// Where the strip's `[[strip]]` table starts.
    public var location: SourceLocation
    /// The file the strip plays instead of JACK input (then it has no input ports), or nil.
    public var source: FileSourceSpec?
    /// The bus whose output this strip takes as its input (`return = "<bus>"`, an effect return; then it
    /// has no input ports), or nil.
    public var returnBus: String?
    /// Where the `return` value is written, for errors about the return.
    public var returnLocation: SourceLocation?
    /// Input trim before the units, dB (−24…+24; `trim_db`).
    public var trimDB: Float = 0
    /// Whether live trim moves that do not say otherwise are gain-compensated (`trim_compensate`).
    public var trimCompensates = false
    /// `x32_channel`: the X32 channel (1…32) X32 clients see this strip on; nil takes the next free one in preset order.
    public var x32Channel: Int?
    /// The talkback settings (`talkback = true`), or nil for an ordinary strip.
    public var talkback: TalkbackSpec?
    /// The name pages show for the strip (`label = "Acoustic"`), or nil to show ``name``.
    public var label: String?

    /// Whether the strip has JACK input ports (it neither plays a file nor returns a bus).
    public var hasInputPorts: Bool { source == nil && returnBus == nil }

    /// Creates a strip description.
    public init(
        name: String, channels: Int = 1, gainDB: Float = 0, pan: Float = 0, isMuted: Bool = false,
        isSoloed: Bool = false, isEnabled: Bool = true, connections: [[String]] = [],
        units: [UnitSpec] = [], sends: [SendSpec] = [], location: SourceLocation
    ) {
        self.name = name
        self.channels = channels
        self.gainDB = gainDB
        self.pan = pan
        self.isMuted = isMuted
        self.isSoloed = isSoloed
        self.isEnabled = isEnabled
        self.connections = connections
        self.units = units
        self.sends = sends
        self.location = location
    }
}

/// A send from a strip to a bus.
public struct SendSpec: Sendable {
    /// The name of the bus fed; validation guarantees it exists.
    public var busName: String
    /// The send level, in dB (−144…+24).
    public var gainDB: Float
    /// Whether the send taps the signal before the fader (and pan), as monitor sends do.
    public var isPreFader: Bool
    /// The send's own pan into a stereo bus (`pan`, −1…+1), or nil to follow the strip's pan.
    public var pan: Float?
    /// A stereo strip's width into a stereo bus (`width`, 0 mono sum … 1 as is … 2), or nil for 1.
    public var width: Float?
    /// Whether the send is switched off (`mute = true`); its level is kept for when it is switched on.
    public var isMuted: Bool
    /// Where the source sits in a binaural bus (`azimuth_deg`, `elevation_deg`, `distance_m`), or nil for in front at 1 m.
    public var position: BinauralPosition?
    /// Where the send's `[[strip.send]]` table starts.
    public var location: SourceLocation

    /// Creates a send description.
    public init(
        busName: String, gainDB: Float = 0, isPreFader: Bool = false, pan: Float? = nil, width: Float? = nil, isMuted: Bool = false,
        location: SourceLocation
    ) {
        self.busName = busName
        self.gainDB = gainDB
        self.isPreFader = isPreFader
        self.pan = pan
        self.width = width
        self.isMuted = isMuted
        self.location = location
    }
}

/// A talkback strip's settings: silent until pressed, then heard in the buses it talks to, which dim.
public struct TalkbackSpec: Sendable, Equatable {
    /// The buses it talks to (`talk_to`), in file order; each exists.
    public var busNames: [String]
    /// How far the other content of those buses dims while it is pressed, dB (`dim_db`, −144…0).
    public var dimDB: Float
    /// The default `dim_db`.
    public static let defaultDimDB: Float = -12

    /// Talkback to `busNames`, dimming them by `dimDB`.
    public init(busNames: [String], dimDB: Float = defaultDimDB) {
        self.busNames = busNames
        self.dimDB = dimDB
    }
}
