// What live control drives: the running engine and preset, and switching presets. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackAnalysis
public import FoldbackEngine
public import FoldbackPresets

/// A running Foldback instance as control surfaces see it (the CLI's live session implements it).
///
/// Implementations must be safe to call from any non-realtime thread (OSC, signal polling, MIDI).
public protocol LiveControlTarget: AnyObject, Sendable {
    /// The engine playing the current preset.
    var engine: Engine { get }
    /// The preset playing now.
    var currentPreset: Preset { get }
    /// Loads the preset at `path`, builds its graph off the audio thread and crossfades to it.
    /// - Returns: a one-line report of what changed (ports added, removed).
    /// - Throws: ``ControlError/presetRejected(_:)`` with every diagnostic; the old preset keeps playing.
    func switchPreset(toPath path: String) throws(ControlError) -> String
    /// As ``switchPreset(toPath:)``, the preset's echoes set to `tempo` BPM first when it is given (a setlist
    /// song's `bpm`, through ``FoldbackPresets/Preset/settingTempo(_:)``).
    func switchPreset(toPath path: String, tempo: Float?) throws(ControlError) -> String
    /// Writes the running chain to a preset file at `path`: the current preset with every value set live,
    /// the ports' current connections and each plugin's saved state.
    /// - Returns: a one-line report (what was written, anything left out).
    func saveChain(toPath path: String) throws(ControlError) -> String
    /// Starts (`true`) or stops the record tap (`recorder`) or the file players (`false`).
    /// - Returns: what was done. - Throws: ``ControlError/failed(_:)`` when there is none to switch.
    func setTransport(recorder: Bool, on: Bool) throws(ControlError) -> String
    /// Carries out a sound-check command on the take (`--soundcheck TAKE`). - Returns: what was done.
    /// - Throws: ``ControlError/failed(_:)`` when no take plays, or a strip it does not know.
    func soundcheck(_ command: SoundcheckCommand) throws(ControlError) -> String
    /// The take playing, or nil without `--soundcheck`.
    var soundcheckStatus: SoundcheckStatus? { get }
    /// The latency figures of bus `name` (what Foldback adds, the round trip JACK reports), or nil for no such bus.
    func busLatency(named name: String) -> BusLatencyFigures?
    /// Every bus's latest loudness (and in-ear dose), in preset order.
    func busLoudness() -> [BusLoudness]
    /// The engineer's spectrum analyser, or nil when this instance has none.
    var analyser: SpectrumMonitor? { get }
    /// The show tempo (`tempo/bpm`), or nil when this instance keeps none (the router then counts taps itself).
    var liveTempo: ShowTempo? { get }
    /// Every file source's tempo, key and song position, in preset order.
    func fileSources() -> [FileSourceState]
    /// Plays, stops, locates or cues the file source of strip `strip`. - Returns: its state after the command.
    /// - Throws: ``ControlError/failed(_:)`` when the strip plays no file.
    func sourceTransport(_ command: SourceTransportCommand, strip: String) throws(ControlError) -> FileSourceState
    /// What the last song change recalled and which live moves it kept (nil before one, or when not tracked).
    var lastRecall: RecallReport? { get }
}

extension LiveControlTarget {
    /// Targets keep no show tempo unless they say so.
    public var liveTempo: ShowTempo? { nil }

    /// Targets that cannot retime a preset load it as it is.
    public func switchPreset(toPath path: String, tempo: Float?) throws(ControlError) -> String {
        try switchPreset(toPath: path)
    }

    /// Targets that cannot write their running chain refuse.
    public func saveChain(toPath path: String) throws(ControlError) -> String {
        throw .failed("this instance cannot write its chain to a preset")
    }

    /// Targets that measure no loudness answer an empty list.
    public func busLoudness() -> [BusLoudness] { [] }

    /// Targets without an analyser answer nil.
    public var analyser: SpectrumMonitor? { nil }

    /// Targets that know no latency answer nil.
    public func busLatency(named name: String) -> BusLatencyFigures? { nil }

    /// Targets without a recorder or file players refuse.
    public func setTransport(recorder: Bool, on: Bool) throws(ControlError) -> String {
        throw .failed(recorder ? "not recording: start foldback run with --record DIR" : "no strip plays a file")
    }

    /// Targets that keep no recall scope have no report.
    public var lastRecall: RecallReport? { nil }

    /// Targets without a take have no status.
    public var soundcheckStatus: SoundcheckStatus? { nil }

    /// Targets without a take refuse.
    public func soundcheck(_ command: SoundcheckCommand) throws(ControlError) -> String {
        throw .failed(HostParameter.noTakeMessage)
    }
}
