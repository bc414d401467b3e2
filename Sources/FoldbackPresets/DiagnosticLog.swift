// Collects a preset's errors and warnings while it is validated, up to a cap. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Gathers every problem found in one preset so the author can fix them in one pass.
/// Stops recording errors after ``limit`` and notes how many more there were.
final class DiagnosticLog {
    /// The most errors reported; later ones are counted, not listed.
    let limit: Int
    private var errors: [PresetDiagnostic] = []
    private(set) var warnings: [PresetDiagnostic] = []
    private var suppressedCount = 0

    init(limit: Int = 20) {
        self.limit = limit
    }

    /// Whether any error was recorded.
    var hasErrors: Bool { !errors.isEmpty }

    /// Records an error.
    func error(_ message: String, at location: SourceLocation) {
        guard errors.count < limit else {
            suppressedCount += 1
            return
        }
        errors.append(PresetDiagnostic(location: location, message: message, severity: .error))
    }

    /// Records a warning.
    func warning(_ message: String, at location: SourceLocation) {
        warnings.append(PresetDiagnostic(location: location, message: message, severity: .warning))
    }

    /// Errors and warnings in file order, with a closing note if errors were dropped.
    func sortedDiagnostics() -> [PresetDiagnostic] {
        let ordered = (errors + warnings).enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.location, rhs.element.location)
            if a.line != b.line { return a.line < b.line }
            if a.column != b.column { return a.column < b.column }
            return lhs.offset < rhs.offset
        }.map(\.element)
        guard suppressedCount > 0, let last = ordered.last(where: { $0.severity == .error }) else { return ordered }
        let note = "too many errors; \(suppressedCount) more not shown (fix these and run 'foldback check' again)"
        return ordered + [PresetDiagnostic(location: last.location, message: note, severity: .error)]
    }

    /// The warnings in file order.
    func sortedWarnings() -> [PresetDiagnostic] { sortedDiagnostics().filter { $0.severity == .warning } }
}
