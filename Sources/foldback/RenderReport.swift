// The summary `foldback render` prints for one finished input set. Non-realtime.
import FoldbackLive
import Foundation
import FoldbackRender

/// Formats a ``RenderSummary``: one line, plus an indented note for anything adapted or cut.
enum RenderReport {
    static func lines(_ summary: RenderSummary, renderer: OfflineRenderer) -> String {
        let outputs = zip(renderer.request.outputs, renderer.outputFormats)
            .map { "\($0.bus) → \($0.url.path) (\(RenderCommand.name(of: $1)))" }.joined(separator: ", ")
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
