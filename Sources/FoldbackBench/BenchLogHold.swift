// Holds the lines units log while `foldback bench` measures, so none lands in its table; counted after it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Logging
import Synchronization

/// The process's log while the bench runs: every line a unit logs (the feedback case's analysis reacting to the
/// bench's noise, say) is held here instead of going to standard error between the table's rows, and
/// ``summary`` says afterwards how many there were and from which loggers.
package final class BenchLogHold: Sendable {
    private let lines = Mutex<[(label: String, text: String)]>([])

    private init() {}

    /// The hold, made the process's logging system on first use (swift-log takes one bootstrap per process, so
    /// only an executable that logs nothing else through swift-log may call this).
    package static let installed: BenchLogHold = {
        let hold = BenchLogHold()
        LoggingSystem.bootstrap { label in Handler(label: label, hold: hold) }
        return hold
    }()

    /// Every line held so far, as `label: message`.
    package var heldLines: [String] { lines.withLock { $0.map { "\($0.label): \($0.text)" } } }

    /// One line for standard error after the table, or nil when nothing was logged.
    package var summary: String? {
        let held = lines.withLock { $0 }
        guard !held.isEmpty else { return nil }
        var labels: [String] = []
        for line in held where !labels.contains(line.label) { labels.append(line.label) }
        return "foldback bench: \(held.count) log line\(held.count == 1 ? "" : "s") from the units (\(labels.joined(separator: ", "))) "
            + "held back from the table"
    }

    fileprivate func hold(label: String, text: String) { lines.withLock { $0.append((label, text)) } }

    /// Sends every line to the hold.
    private struct Handler: LogHandler {
        let label: String
        let hold: BenchLogHold
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { hold.hold(label: label, text: "\(event.level) \(event.message)") }
    }
}
