// The validated preset model: buses and strips in port order. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A validated preset: what `foldback run` builds its JACK client and mixing graph from.
///
/// Everything in it has passed validation: names are unique and well-formed, values are in
/// range, every send names a bus, and every unit parameter is present (defaults filled in).
public struct Preset: Sendable {
    /// The `[preset] name`, if given.
    public var name: String?
    /// The `[preset] description`, if given.
    public var description: String?
    /// The output buses; their order is the order of the JACK output ports.
    public var buses: [BusSpec]
    /// The input strips; their order is the order of the JACK input ports.
    public var strips: [StripSpec]
    /// The file the preset came from, as given to the loader.
    public var path: String
    /// How MIDI on the `midi_in` port controls the preset (the `[midi]` section).
    public var midi: MIDIMap
    /// Fixed tokens of the web surface (the `[web]` section; empty when absent).
    public var web: WebSpec
    /// The engineer's cue output (`[cue]`), or nil for none.
    public var cue: CueSpec?
    /// DCA groups (`[[dca]]`), in file order.
    public var dcas: [StripGroupSpec] = []
    /// Mute groups (`[[mute_group]]`), in file order.
    public var muteGroups: [StripGroupSpec] = []
    /// `[x32] buses`: the only buses whose sends X32 / X-Air clients may change (nil: every bus and master).
    public var x32Buses: [String]?
    /// Parameters a song change never recalls (`[preset] recall_safe`); see also ``isRecallSafe(_:)``.
    public var recallSafe = RecallSafes()
    /// `[preset] gating`: whether silent strips and buses at rest skip their units (default true; docs/presets.md).
    public var isGatingEnabled = true
    /// The stage plot (`[stage]`), or nil: where players stand, for binaural buses' default positions.
    public var stage: StagePlot?
    /// Things that load but look unintended (for example a strip with no sends).
    public var warnings: [PresetDiagnostic]

    /// Creates a preset model directly (tests and generated presets); files go through ``PresetLoader``.
    public init(
        name: String? = nil, description: String? = nil, buses: [BusSpec], strips: [StripSpec],
        path: String, warnings: [PresetDiagnostic] = [], midi: MIDIMap = MIDIMap(), web: WebSpec = WebSpec()
    ) {
        self.midi = midi
        self.web = web
        self.name = name
        self.description = description
        self.buses = buses
        self.strips = strips
        self.path = path
        self.warnings = warnings
    }

    /// The bus with the given name, if any.
    public func bus(named name: String) -> BusSpec? { buses.first { $0.name == name } }

    /// The strip with the given name, if any.
    public func strip(named name: String) -> StripSpec? { strips.first { $0.name == name } }
}
