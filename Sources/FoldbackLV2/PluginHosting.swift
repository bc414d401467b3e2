// How plugins are hosted: live on the audio thread, or offline faster than realtime, and at which block length. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The hosting mode a graph's plugins are prepared for.
public struct PluginHosting: Sendable, Equatable {
    /// Whether background work runs synchronously inside the cycle that asks for it (offline).
    public var isSynchronous: Bool
    /// The block length plugins are told to expect most of the time (`bufsz:nominalBlockLength`: the JACK
    /// period live, the render block offline); nil means the graph's largest block.
    public var nominalBlockLength: Int?
    /// The SCHED_FIFO priority of Foldback's audio thread (the JACK client's), which a plugin sandbox's thread takes; nil: none.
    public var realtimePriority: Int32?
    /// Whether plugins placed in sandboxes get their processes started. False for a graph that is only looked at (its
    /// channels, ports and taps) and never rendered: its sandboxes are laid out, their executable found, nothing started.
    public var startsSandboxes: Bool

    /// A hosting mode (see the properties).
    public init(isSynchronous: Bool, nominalBlockLength: Int?, realtimePriority: Int32? = nil, startsSandboxes: Bool = true) {
        self.isSynchronous = isSynchronous
        self.nominalBlockLength = nominalBlockLength
        self.realtimePriority = realtimePriority
        self.startsSandboxes = startsSandboxes
    }

    /// Live on JACK: plugin background work (`worker:schedule`) runs on a worker thread, fed through
    /// lock-free rings, and its responses reach the plugin on a later cycle.
    public static let live = PluginHosting(isSynchronous: false, nominalBlockLength: nil)
    /// Offline rendering: background work runs synchronously inside the cycle that asks for it, so
    /// renders are deterministic and never wait for a thread.
    public static let offline = PluginHosting(isSynchronous: true, nominalBlockLength: nil)
    /// Live placement for a graph that is only looked at, never rendered (`foldback run` checks the preset and opens its
    /// recorders on one before it joins JACK): plugins go where they would live, but no sandbox process is started.
    public static let layoutOnly = PluginHosting(isSynchronous: false, nominalBlockLength: nil, startsSandboxes: false)

    /// Live hosting for a JACK period of `frames`, the audio thread at SCHED_FIFO `priority` (if any).
    public static func live(period frames: Int, priority: Int32? = nil) -> PluginHosting {
        PluginHosting(isSynchronous: false, nominalBlockLength: frames, realtimePriority: priority)
    }

    /// Offline hosting for render blocks of `frames`.
    public static func offline(block frames: Int) -> PluginHosting {
        PluginHosting(isSynchronous: true, nominalBlockLength: frames)
    }
}
