// What the built-in effect units share when they are made and prepared: settings from preset keys, and the 1-or-2-channel format check. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Setup steps the `reverb`, `echo` and `deesser` units take alike.
enum BuiltinUnitSetup {
    /// `defaults` with each of `descriptors` present in `values` (by preset key) applied by `apply` at its index.
    static func settings<Settings>(
        _ defaults: Settings, values: [String: Float], descriptors: [ParameterDescriptor], apply: (Int32, Float, inout Settings) -> Void
    ) -> Settings {
        var settings = defaults
        for (index, descriptor) in descriptors.enumerated() {
            if let value = values[descriptor.key] { apply(Int32(index), value, &settings) }
        }
        return settings
    }

    /// Refuses anything but 1 or 2 channels at 8 kHz … 768 kHz, naming the unit.
    static func checkMonoOrStereo(unit: String, channels: Int, sampleRate: Double) throws(EngineError) {
        guard channels == 1 || channels == 2 else {
            throw .unitSetupFailed(unit: unit, reason: "takes 1 or 2 channels, not \(channels)")
        }
        guard sampleRate.isFinite, (8000...768_000).contains(sampleRate) else {
            throw .unitSetupFailed(unit: unit, reason: "runs at 8 kHz to 768 kHz, not \(sampleRate) Hz")
        }
    }
}
