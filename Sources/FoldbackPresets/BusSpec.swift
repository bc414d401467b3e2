// One output bus of a preset (`[[bus]]`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
import Foundation

/// An output bus: a mix of strip sends feeding one or two JACK output ports.
public struct BusSpec: Sendable {
    /// The bus name; it also names the output ports (see `PortNaming.outputPortNames`).
    public var name: String
    /// 1 (mono) or 2 (stereo).
    public var channels: Int
    /// The bus master gain, in dB (−144…+24).
    public var gainDB: Float
    /// Whether the bus outputs silence.
    public var isMuted: Bool
    /// For each output port, in channel order, the JACK ports to connect it to.
    /// Always has `channels` elements; an empty element leaves that port unconnected.
    public var connections: [[String]]
    /// The output safety limiter (on by default, since an in-ear mix must never exceed its ceiling);
    /// nil when the preset turns it off (`limiter = false`).
    public var limiter: LimiterSettings?
    /// An in-ear monitor mix (`in_ear = true`): its limiter defaults to zero latency, and `foldback run`
    /// warns when its round trip passes ``BusSpec/inEarRoundTripBudgetMs``.
    public var isInEar: Bool
    /// A musician's own mix (`recall_safe = true`): a preset or setlist switch keeps its running send levels,
    /// level and mute instead of taking the new preset's (FoldbackControl's `RecallSafeMixes`).
    public var isRecallSafe = false
    /// `x32_main`: X32 clients see this bus as the main (`/main/st`, `/lr`) instead of the first with playback connections.
    public var isX32Main = false
    /// The name pages show for the bus (`label = "Singer's ears"`), or nil to show ``name``.
    public var label: String?
    /// Where the bus's `[[bus]]` table starts.
    public var location: SourceLocation
    /// Units processed in order on the summed bus (`[[bus.unit]]`), before the gain and the limiter.
    public var units: [UnitSpec] = []
    /// Whether the bus has JACK output ports; an effect bus (`output = false`) feeds only return strips.
    public var hasOutput = true
    /// Whether faster paths into the bus are delayed to arrive with the slowest (`compensate`, on by default).
    public var isCompensated = true
    /// Whether each send renders at its own position around the listener through an HRTF set (`binaural = true`,
    /// stereo buses only): pan is replaced by `azimuth_deg`, `elevation_deg` and `distance_m` on the sends.
    public var isBinaural = false
    /// The SOFA file of a binaural bus (`hrtf`, relative to the preset's folder), or nil for the Debian KEMAR set.
    public var hrtfPath: String?
    /// Where the `hrtf` value is, for errors about the file.
    public var hrtfLocation: SourceLocation?
    /// The `[stage]` player whose ears this binaural bus is (`listener = "bass"`): its sends default to where their
    /// players stand relative to them; nil for none.
    public var listener: String?
    /// Where the `listener` value is, for errors about it.
    public var listenerLocation: SourceLocation?
    /// The level of a binaural bus's room (`room = true`, `room_db`, 0 dB by default: early reflections and a short
    /// tail, docs/binaural.md), or nil for none.
    public var roomDB: Float?

    /// Creates a bus description.
    public init(
        name: String, channels: Int = 2, gainDB: Float = 0, isMuted: Bool = false,
        connections: [[String]] = [], limiter: LimiterSettings? = LimiterSettings(), isInEar: Bool = false,
        location: SourceLocation
    ) {
        self.limiter = limiter
        self.isInEar = isInEar
        self.name = name
        self.channels = channels
        self.gainDB = gainDB
        self.isMuted = isMuted
        self.connections = connections
        self.location = location
    }
}

extension BusSpec {
    /// The Debian KEMAR set libmysofa ships, a binaural bus's set without `hrtf`.
    public static let defaultHRTFPath = "/usr/share/libmysofa/default.sofa"

    /// The SOFA file of this binaural bus: `hrtf` made absolute against the folder of the preset at `presetPath`, or
    /// the default set.
    public func hrtfFile(presetPath: String) -> String {
        guard let path = hrtfPath else { return Self.defaultHRTFPath }
        if path.hasPrefix("/") { return path }
        let folder = (presetPath as NSString).deletingLastPathComponent
        return folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
    }

    /// The end-to-end delay a singer tolerates in in-ears, ms: listening tests put vocalists under about 3 ms
    /// and drummers under 6; Foldback warns past 5 ms of JACK round trip on an in-ear bus.
    public static let inEarRoundTripBudgetMs = 5.0
}
