// One parameter of a running show as every surface sees it: its address, value type, range, default and who may set it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// One parameter in a ``ParameterTree``: where it lives in the engine, how it is named everywhere (OSC, web,
/// MIDI targets with dots, reports), what it takes and who may set it.
public struct ParameterNode: Sendable, Hashable {
    /// The one spelling: the OSC address after `/foldback/` (`strip/vox/gain_db`, `bus/iem/limiter_ceiling_db`).
    public var path: String
    /// Where it lives in the engine.
    public var address: ParameterAddress
    /// The unit's declaration for unit parameters; the engine's own for strips, sends, buses, cue and talkback.
    public var descriptor: ParameterDescriptor
    /// The value the running preset gives it (what it has until someone sets it).
    public var presetValue: Float
    /// Besides the engineer, the musician of this bus may set it (their sends, level and mute); nil: the engineer only.
    public var musicianBus: String?

    /// A node.
    public init(path: String, address: ParameterAddress, descriptor: ParameterDescriptor, presetValue: Float, musicianBus: String? = nil) {
        self.path = path
        self.address = address
        self.descriptor = descriptor
        self.presetValue = presetValue
        self.musicianBus = musicianBus
    }

    /// Whether the host applies it (a file source's tempo and key, a sound-check input switch) rather than the
    /// engine's parameter queue; every surface reads and sets it alike.
    public var isHostSide: Bool {
        if case .host = address { true } else { false }
    }
    /// The values it accepts.
    public var range: ClosedRange<Float> { descriptor.range }
    /// Whether it is a 0/1 switch (OSC sends and answers it as `i`).
    public var isSwitch: Bool { descriptor.type == .toggle || descriptor.type == .trigger }
    /// The MIDI target spelling: the path with dots (`strip.vox.gain_db`).
    public var dottedPath: String { path.split(separator: "/", omittingEmptySubsequences: false).joined(separator: ".") }

    /// Whether `value` is one this parameter takes: within the range (a number), 0 or 1 (a toggle), a whole
    /// number (an integer), one of the choices.
    public func accepts(_ value: Float) -> Bool {
        guard !value.isNaN else { return false }
        switch descriptor.type {
        case .trigger: return true
        case .toggle: return value == 0 || value == 1
        case .choice: return descriptor.choices.contains { $0.value == value }
        case .integer: return range.contains(value) && value == value.rounded()
        case .number: return range.contains(value)
        }
    }
}
