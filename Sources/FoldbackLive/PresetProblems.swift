// Prints a preset's problems as file:line:column lines and a count, for every front end. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackPresets

/// How a refused preset is reported on standard error.
package enum PresetProblems {
    /// Prints every diagnostic of `error` and a count line.
    package static func report(_ error: PresetError, path: String) {
        for line in ShowError.preset(error, path: path).lines { StandardError.writeLine(line) }
    }
}
