// Writes a response plot's SVG for `foldback curves --svg` and `foldback check --eq-svg`. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import FoldbackLive
import FoldbackPlot
import Foundation

extension ResponsePlot {
    /// Writes the plot to `path` (saying so on standard error when `announces`); a failure is reported
    /// and exits with status 2.
    func write(to path: String, announces: Bool = true) throws {
        do {
            try render().write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            StandardError.writeLine("foldback: cannot write '\(path)': \(error.localizedDescription)")
            throw ExitCode(2)
        }
        if announces { StandardError.writeLine("wrote \(path)") }
    }
}
