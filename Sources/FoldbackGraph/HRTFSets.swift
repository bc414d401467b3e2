// The HRTF sets of a preset's binaural buses, loaded once per file version and sample rate, at most 8 kept. Non-realtime (reads files).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackHRTF
import FoldbackPresets

/// Loads the SOFA file of a binaural bus at the engine's rate and keeps it, so a preset switch or a second bus with
/// the same set does not read and resample it again (sets are immutable; graphs share them). A file edited or
/// replaced since (a musician's new personal set) is read again; at most ``capacity`` sets are kept, the least
/// recently used going first (a set in a playing graph lives on in that graph).
enum HRTFSets {
    /// Sets kept at most (a KEMAR set at 48 kHz is about 1 MB).
    static let capacity = 8
    private static let cache = FileVersionCache<HRIRSet>(capacity: capacity)

    /// Sets kept now.
    static var count: Int { cache.count }

    /// The file of `bus` (its `hrtf`, relative to the preset's folder, else the Debian KEMAR set) at `sampleRate`;
    /// an unusable file is a ``PresetError`` at the `hrtf` value (or the bus) naming the file and why.
    static func set(for bus: BusSpec, presetPath: String, sampleRate: Double) throws(PresetError) -> HRIRSet {
        let path = bus.hrtfFile(presetPath: presetPath)
        do {
            return try cache.value(key: "\(sampleRate) \(path)", path: path) { () throws(SOFAError) in
                try SOFALoader.load(path: path, sampleRate: sampleRate)
            }
        } catch {
            throw PresetError(diagnostics: [PresetDiagnostic(
                location: bus.hrtfLocation ?? bus.location, message: "bus '\(bus.name)': \(error.description)")])
        }
    }
}
