// The error a preset that cannot be loaded throws: every diagnostic found. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A preset could not be loaded; `diagnostics` lists every problem found (errors first
/// in file order, with any warnings interleaved by position).
public struct PresetError: Error, Sendable, CustomStringConvertible {
    /// All problems found, in file order.
    public var diagnostics: [PresetDiagnostic]

    /// Creates an error from its diagnostics.
    public init(diagnostics: [PresetDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Only the diagnostics with severity `.error`.
    public var errors: [PresetDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// One diagnostic per line, `file:line:column: error: message`.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
