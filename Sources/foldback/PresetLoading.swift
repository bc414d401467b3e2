// Loads a preset for a CLI verb, printing every diagnostic and exiting 2 on bad input. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLive
import ArgumentParser
import FoldbackPresets

/// Preset loading shared by the verbs: problems go to standard error as file:line:column lines.
enum PresetLoading {
    /// The preset at `given` (a path, or a shipped preset's name), or exit status 2 after printing its problems.
    static func load(_ given: String) throws -> Preset {
        let path = SharedData.presetPath(named: given) ?? given   // a shipped preset's name works too
        do {
            return try PresetLoader.load(path: path)
        } catch {
            PresetProblems.report(error, path: path)
            throw ExitCode(2)
        }
    }
}
