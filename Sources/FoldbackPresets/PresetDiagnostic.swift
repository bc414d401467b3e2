// One compiler-style message about a preset file (error or warning). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A problem found in a preset, located at a file, line and column.
public struct PresetDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable {
        /// The preset cannot be used.
        case error
        /// The preset works but probably not as intended.
        case warning
    }

    /// Where the problem is: the offending key, or its value.
    public var location: SourceLocation
    /// What is wrong, and what to do about it.
    public var message: String
    /// Whether the problem stops the preset from loading.
    public var severity: Severity

    /// Creates a diagnostic.
    public init(location: SourceLocation, message: String, severity: Severity = .error) {
        self.location = location
        self.message = message
        self.severity = severity
    }

    /// `file:line:column: error: message`, the form editors and terminals link to.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}
