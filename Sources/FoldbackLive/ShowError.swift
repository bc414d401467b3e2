// Why a show did not start or stopped early, with the exit status `foldback run` gives it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackPresets

/// A show that cannot start (or must stop): bad input (exit status 2) or a failure (1).
package enum ShowError: Error, Sendable, CustomStringConvertible {
    /// A bad option or file the user can fix: the message, exit status 2.
    case usage(String)
    /// A preset or setlist with problems: every diagnostic of the file at `path`, exit status 2.
    case preset(PresetError, path: String)
    /// Something outside the user's input failed (JACK, a socket, a refused announce): exit status 1.
    case failed(String)
    /// Already reported on standard error (a source file that cannot be read…); exit with `status`.
    case reported(status: Int32)

    /// The exit status of `foldback run`.
    package var status: Int32 {
        switch self {
        case .usage, .preset: return 2
        case .failed: return 1
        case let .reported(status): return status
        }
    }

    /// The lines to print on standard error (none for ``reported(status:)``).
    package var lines: [String] {
        switch self {
        case let .usage(message), let .failed(message):
            return ["foldback: \(message)"]
        case let .preset(error, path):
            let count = error.errors.count
            return error.diagnostics.map(\.description) + ["foldback: \(path) has \(count) \(count == 1 ? "error" : "errors")"]
        case .reported:
            return []
        }
    }

    package var description: String { lines.joined(separator: "\n") }
}
