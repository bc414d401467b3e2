// Host-side parameters: tree nodes applied off the audio thread by the host (a file source's disk thread, the sound-check switch), not through the engine's queue. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A parameter the host applies itself rather than the engine's parameter queue: a file source's tempo and
/// key (its disk thread stretches and shifts the file) and each strip's input switch between its ports and
/// the sound-check take. Its node in the ``ParameterTree`` carries the same metadata as any other, so OSC,
/// MIDI, the web pages, saving and `foldback check --parameters` read it alike; ``Engine/set(_:to:)`` hands it
/// to the engine's ``HostParameterApplier``.
public enum HostParameter: Sendable, Hashable {
    /// Strip `strip`'s file source speed, 1 as recorded.
    case sourceTempo(strip: Int)
    /// Strip `strip`'s file source key shift, semitones.
    case sourcePitchSemitones(strip: Int)
    /// Strip `strip`'s file source fine key shift, cents.
    case sourceCents(strip: Int)
    /// Whether strip `strip` plays the sound-check take (1, `take`) or its ports (0, `live`), crossfaded.
    case stripInput(strip: Int)
    /// Every strip on the sound-check take at once: 1 plays the take, 0 goes live (reads 1 while all play it).
    case allInputs
    /// The show tempo in BPM (`tempo/bpm`): set on every `echo`'s `tempo_bpm`, so every synced echo follows it.
    case showTempo
    /// Where the show tempo comes from (`tempo/source`, a ``TempoSource``).
    case tempoSource
    /// Whether the sandboxed LV2 unit `unit` of strip (or, `isBus`, bus) `owner` plays its fallback after a fault
    /// (1: crashed, hung or produced garbage, restarting or left bypassed; 0: the plugin plays); 0 re-enables it.
    case pluginFaulted(isBus: Bool, owner: Int, unit: Int)

    /// Why a sound-check switch is refused while the show plays no take (every surface says the same).
    public static let noTakeMessage = "no take plays: start foldback run with --soundcheck TAKE"

    /// The strip it belongs to, nil for ``allInputs`` and a bus's plugin.
    public var strip: Int? {
        switch self {
        case let .sourceTempo(strip), let .sourcePitchSemitones(strip), let .sourceCents(strip), let .stripInput(strip): strip
        case let .pluginFaulted(isBus, owner, _): isBus ? nil : owner
        case .allInputs, .showTempo, .tempoSource: nil
        }
    }

    /// Whether it is a sound-check input switch (live only: never written into a preset).
    public var isInputSwitch: Bool {
        switch self {
        case .stripInput, .allInputs: true
        default: false
        }
    }

    /// Why setting it is refused without a running show's applier (offline, before `foldback run` plays).
    public var refusedWithoutShow: String {
        switch self {
        case .stripInput, .allInputs: Self.noTakeMessage
        case .pluginFaulted: "plugins are re-enabled in a running show (foldback run) only"
        default: "file sources play in a running show (foldback run) only"
        }
    }

    /// The input switch's declaration: a choice of `live` (0, the strip's ports) and `take` (1).
    public static let input = ParameterDescriptor(
        key: ParameterTree.Key.input, range: 0...1, defaultValue: 0,
        choices: [ParameterChoice(name: "live", value: 0), ParameterChoice(name: "take", value: 1)], isSmoothed: true,
        summary: "Input: the strip's ports (live) or its channels of the sound-check take (take), crossfaded.")

    /// The faulted state's declaration: a switch the sandbox sets; writing 0 re-enables a plugin left bypassed.
    public static let faulted = ParameterDescriptor.toggle(
        key: ParameterTree.Key.faulted, defaultValue: 0,
        summary: "Faulted: 1 while an isolated plugin's sandbox crashed, hung or gave garbage (its unit bypassed or muted, "
            + "restarting, or left bypassed after 3 faults in a minute); set 0 to start it again.")

    /// Why a faulted state cannot be set to 1 (every surface says the same).
    public static let faultedIsReadOnly = "faulted is set by the plugin's sandbox; send 0 to re-enable the plugin"
}

extension HostParameter {
    /// The show tempo's declaration: 20 … 300 BPM, 120 until something sets it.
    public static let tempo = ParameterDescriptor(
        key: ParameterTree.Key.bpm, range: 20...300, defaultValue: 120, unit: "BPM", curve: .linear,
        summary: "The show tempo in beats per minute: every echo's sync counts against it (setlist, taps, MIDI clock or JACK transport set it).")

    /// The tempo source's declaration: a choice of ``TempoSource``s.
    public static let tempoSourceDescriptor = ParameterDescriptor(
        key: ParameterTree.Key.source, range: 0...Float(TempoSource.allCases.count - 1), defaultValue: Float(TempoSource.setlist.rawValue),
        choices: TempoSource.allCases.map { ParameterChoice(name: $0.name, value: Float($0.rawValue)) },
        summary: "What the show tempo follows: setlist (songs' bpm; taps override until the next song), tap (taps only), "
            + "midi_clock (clock on midi_in), jack_transport (the timebase master's tempo); taps are always heard.")
}

/// What sets the show tempo (``HostParameter/tempoSource``), and where a tempo came from.
public enum TempoSource: Int, CaseIterable, Sendable {
    /// A setlist song's `bpm` (the default); taps override it until the next song.
    case setlist = 0
    /// Taps (OSC, the pages, a MIDI button) and values set by hand alone.
    case tap = 1
    /// MIDI clock (24 per quarter note) on `midi_in`.
    case midiClock = 2
    /// The BBT tempo of JACK transport's timebase master (Ardour, a click player).
    case jackTransport = 3

    /// The name presets, OSC and pages use (`midi_clock`).
    public var name: String {
        switch self {
        case .setlist: "setlist"
        case .tap: "tap"
        case .midiClock: "midi_clock"
        case .jackTransport: "jack_transport"
        }
    }

    /// Whether a tempo from `origin` is taken while this is the source: its own, taps always, a setlist song's
    /// unless only taps count.
    public func accepts(_ origin: TempoSource) -> Bool {
        origin == self || origin == .tap || (origin == .setlist && self != .tap)
    }
}

/// Applies host-side parameters (``HostParameter``) for an ``Engine``: a live show's file players and take.
/// Called on the control threads (OSC, web, MIDI), never on the audio thread.
public protocol HostParameterApplier: AnyObject, Sendable {
    /// Applies `value` (already within the node's range).
    /// - Throws: ``EngineError/hostParameterRefused(_:)`` saying why (no file on that strip, no take loaded).
    func apply(_ parameter: HostParameter, value: Float) throws(EngineError)
    /// The value in force now, or nil when there is nothing to read (no take, no file playing).
    func value(of parameter: HostParameter) -> Float?
}
