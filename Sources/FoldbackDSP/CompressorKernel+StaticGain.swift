// The compressor's static curve as a whole: the gain its gain computer settles on at a steady level, for editors and reports. Pure function; not called on the realtime thread.
// SPDX-License-Identifier: GPL-3.0-or-later

extension CompressorKernel {
    /// The gain in dB the kernel settles on for a steady detector level of `level` dBFS with `settings`:
    /// the makeup (with the auto makeup when on) less the compression and the downward expansion, from the
    /// same gain computer ``process(inputs:outputs:channels:frames:)`` runs (knee and expander range included).
    public static func staticGainDB(for settings: CompressorSettings, atLevel level: Float) -> Float {
        let curve = Curve(settings)
        let makeup = (settings.makeupDB.isFinite ? settings.makeupDB : 0) + (settings.isAutoMakeupEnabled ? curve.compression(atLevel: 0) : 0)
        return makeup - curve.compression(atLevel: level) - curve.expansion(atLevel: level)
    }
}
