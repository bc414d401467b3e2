// The HRTF sets of a preset's binaural buses, loaded once per file and sample rate. Non-realtime (reads files).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackHRTF
import FoldbackPresets
import Synchronization

/// Loads the SOFA file of a binaural bus at the engine's rate and keeps it, so a preset switch or a second bus with
/// the same set does not read and resample it again (sets are immutable; graphs share them).
enum HRTFSets {
    private static let cache = Mutex<[String: HRIRSet]>([:])

    /// The file of `bus` (its `hrtf`, relative to the preset's folder, else the Debian KEMAR set) at `sampleRate`;
    /// an unusable file is a ``PresetError`` at the `hrtf` value (or the bus) naming the file and why.
    static func set(for bus: BusSpec, presetPath: String, sampleRate: Double) throws(PresetError) -> HRIRSet {
        let path = bus.hrtfFile(presetPath: presetPath)
        let key = "\(sampleRate) \(path)"
        if let cached = cache.withLock({ $0[key] }) { return cached }
        do {
            let set = try SOFALoader.load(path: path, sampleRate: sampleRate)
            cache.withLock { $0[key] = set }
            return set
        } catch {
            throw PresetError(diagnostics: [PresetDiagnostic(
                location: bus.hrtfLocation ?? bus.location, message: "bus '\(bus.name)': \(error.description)")])
        }
    }
}
