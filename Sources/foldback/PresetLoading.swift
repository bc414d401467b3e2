// Loads a preset for a CLI verb, printing every diagnostic and exiting 2 on bad input. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLive
import ArgumentParser
import FoldbackPresets

/// Preset loading shared by the verbs: problems go to standard error as file:line:column lines.
enum PresetLoading {
    /// The preset at `path`, or exit status 2 after printing its problems.
    static func load(_ path: String) throws -> Preset {
        do {
            return try PresetLoader.load(path: path)
        } catch {
            PresetProblems.report(error, path: path)
            throw ExitCode(2)
        }
    }
}
