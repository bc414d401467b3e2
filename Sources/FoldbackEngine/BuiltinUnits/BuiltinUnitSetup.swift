// What the built-in effect units share when they are made and prepared: settings from preset keys, the 1-or-2-channel format check, one state per unit. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A built-in effect unit (`reverb`, `echo`, `deesser`) made from settings of type ``Settings``, whose live
/// parameters (``liveParameters``) are set into those settings by index (``apply(index:value:to:)``).
public protocol BuiltinEffectUnit: EngineUnit {
    /// The unit's settings (``FoldbackDSP`` parameters).
    associatedtype Settings
    /// The settings a key absent from a preset takes.
    static var defaultSettings: Settings { get }
    /// The live-controllable parameters, in index order, with their ranges and defaults.
    static var liveParameters: [ParameterDescriptor] { get }
    /// A unit with `settings`.
    init(settings: Settings)
    /// Sets live parameter `index` (as in ``liveParameters``) in `settings`; unknown indices change nothing.
    static func apply(index: Int32, value: Float, to settings: inout Settings)
}

extension BuiltinEffectUnit {
    /// A unit from values keyed by preset key; absent keys take their defaults.
    public init(values: [String: Float]) {
        var settings = Self.defaultSettings
        for (index, descriptor) in Self.liveParameters.enumerated() {
            if let value = values[descriptor.key] { Self.apply(index: Int32(index), value: value, to: &settings) }
        }
        self.init(settings: settings)
    }
}

/// Setup steps the `reverb`, `echo` and `deesser` units take alike.
enum BuiltinUnitSetup {
    /// Refuses anything but 1 or 2 channels at 8 kHz … 768 kHz, naming the unit.
    static func checkMonoOrStereo(unit: String, channels: Int, sampleRate: Double) throws(EngineError) {
        guard channels == 1 || channels == 2 else {
            throw .unitSetupFailed(unit: unit, reason: "takes 1 or 2 channels, not \(channels)")
        }
        guard sampleRate.isFinite, (8000...768_000).contains(sampleRate) else {
            throw .unitSetupFailed(unit: unit, reason: "runs at 8 kHz to 768 kHz, not \(sampleRate) Hz")
        }
    }

    /// The state of a mono-or-stereo unit `unit` made by `make` in `storage`, after ``checkMonoOrStereo(unit:channels:sampleRate:)``.
    static func prepare<State: ~Copyable>(
        _ storage: UnitStateStorage<State>, unit: String, channels: Int, sampleRate: Double, _ make: () -> State
    ) throws(EngineError) -> UnsafeMutableRawPointer {
        try checkMonoOrStereo(unit: unit, channels: channels, sampleRate: sampleRate)
        return try storage.prepare(unit: unit) { make() }
    }
}
