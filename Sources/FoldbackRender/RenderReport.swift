// The summary a render prints for one finished input set. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Formats a ``RenderSummary``: one line, plus an indented note for anything adapted or cut.
public enum RenderReport {
    /// `foldback: rendered … s … : bus → path (format)`, then a line per adapted input and one if the tail was cut.
    public static func lines(_ summary: RenderSummary, renderer: OfflineRenderer) -> String {
        let outputs = zip(renderer.request.outputs, renderer.outputFormats)
            .map { "\($0.bus) → \($0.url.path) (\($1.optionName))" }.joined(separator: ", ")
        var lines = [String(
            format: "foldback: rendered %.3f s (%.3f s of input + %.3f s tail) at %d Hz in %.2f s CPU (%.0f× realtime): %@",
            summary.outputSeconds, Double(summary.inputFrames) / Double(summary.sampleRate), summary.tailSeconds,
            summary.sampleRate, summary.cpuSeconds, summary.realtimeFactor, outputs)]
        for input in summary.inputNotes where !input.notes.isEmpty {
            lines.append("  \(input.strip): \(input.path): \(input.notes.joined(separator: "; "))")
        }
        if summary.isTailCapped {
            lines.append("  tail cut at the \(Int(RenderTail.defaultCapSeconds)) s cap: a bus was still above \(Int(RenderTail.silenceDBFS)) dBFS")
        }
        return lines.joined(separator: "\n")
    }
}
