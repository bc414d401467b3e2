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
        case .allInputs: nil
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

/// Applies host-side parameters (``HostParameter``) for an ``Engine``: a live show's file players and take.
/// Called on the control threads (OSC, web, MIDI), never on the audio thread.
public protocol HostParameterApplier: AnyObject, Sendable {
    /// Applies `value` (already within the node's range).
    /// - Throws: ``EngineError/hostParameterRefused(_:)`` saying why (no file on that strip, no take loaded).
    func apply(_ parameter: HostParameter, value: Float) throws(EngineError)
    /// The value in force now, or nil when there is nothing to read (no take, no file playing).
    func value(of parameter: HostParameter) -> Float?
}
