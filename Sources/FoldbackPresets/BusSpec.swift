// One output bus of a preset (`[[bus]]`). Non-realtime.

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
    /// The output safety limiter, nil when the preset turns it off (`limiter = false`).
    public var limiter: LimiterSpec?
    /// Where the bus's `[[bus]]` table starts.
    public var location: SourceLocation

    /// Creates a bus description.
    public init(
        name: String, channels: Int = 2, gainDB: Float = 0, isMuted: Bool = false,
        connections: [[String]] = [], limiter: LimiterSpec? = LimiterSpec(), location: SourceLocation
    ) {
        self.limiter = limiter
        self.name = name
        self.channels = channels
        self.gainDB = gainDB
        self.isMuted = isMuted
        self.connections = connections
        self.location = location
    }
}

/// A bus's brickwall safety limiter: on by default, since an in-ear mix must never exceed its ceiling.
public struct LimiterSpec: Sendable, Hashable {
    /// The ceiling no output sample exceeds, in dBFS (`limiter_ceiling_db`, −30…0, default −1).
    public var ceilingDB: Float
    /// Release time, in milliseconds (`limiter_release_ms`, 1…2000, default 50).
    public var releaseMs: Float

    /// A limiter at `ceilingDB` releasing over `releaseMs`.
    public init(ceilingDB: Float = -1, releaseMs: Float = 50) {
        self.ceilingDB = ceilingDB
        self.releaseMs = releaseMs
    }
}
