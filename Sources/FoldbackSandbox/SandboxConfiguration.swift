// What Foldback tells a sandbox process to host: the plugin's recipe, the format, its channel, its priority. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackLV2

/// The one argument of `foldback-sandbox` (as JSON): everything it needs to host one LV2 unit as Foldback would.
public struct SandboxConfiguration: Sendable, Equatable, Codable {
    /// The plugins to instantiate, as the preset set them up: one, or a strip's chain run in order (`isolation = "strip"`).
    public var plugins: [LV2UnitRecipe]
    /// Who the plugin is in log lines (`x42 EQ on strip 'vox'`).
    public var label: String
    /// The strip channels the unit is prepared for, the sample rate and the largest block.
    public var channels: Int
    public var sampleRate: Double
    public var maxFrames: Int
    /// Offline hosting (worker requests run inside the cycle) and the nominal block length.
    public var isSynchronous: Bool
    public var nominalBlockLength: Int?
    /// The SCHED_FIFO priority of the sandbox's audio thread (the JACK client's), or nil for none (offline, tests).
    public var realtimePriority: Int32?
    /// Where the sandbox maps the shared channel from, and Foldback's process id (the sandbox leaves when it is gone).
    public var channelPath: String
    public var parentProcess: Int32

    /// A configuration.
    public init(
        plugins: [LV2UnitRecipe], label: String, channels: Int, sampleRate: Double, maxFrames: Int, hosting: PluginHosting,
        channelPath: String, parentProcess: Int32
    ) {
        self.plugins = plugins
        self.label = label
        self.channels = channels
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        isSynchronous = hosting.isSynchronous
        nominalBlockLength = hosting.nominalBlockLength
        realtimePriority = hosting.realtimePriority
        self.channelPath = channelPath
        self.parentProcess = parentProcess
    }

    /// The hosting mode the sandbox prepares its plugin for.
    public var hosting: PluginHosting {
        PluginHosting(isSynchronous: isSynchronous, nominalBlockLength: nominalBlockLength, realtimePriority: realtimePriority)
    }
}
