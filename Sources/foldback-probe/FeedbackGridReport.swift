// foldback-probe --feedback-grid: runs the feedback stage grid and prints its Markdown table (the one in docs/presets.md). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackFeedback
import FoldbackFeedbackTesting
import Foundation

/// Runs ``StageSweep/fullGrid`` (or the cells with the given loop delays), printing each row as it is measured
/// and then how many cells passed.
enum FeedbackGridReport {
    static func run(delays: String?, quick: Bool) throws {
        let wanted = delays.map { Set($0.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }) }
        let cells = (quick ? StageSweep.representativeCells : StageSweep.fullGrid).filter { wanted?.contains($0.delayMS) ?? true }
        print("Feedback stage grid: loop gain stepped from MSG − 6 dB to MSG + 6 dB at 1 s, \(Int(StageSweep.seconds)) s per run, "
              + "settled = the last \(Int(StageSweep.settledSeconds)) s; \(cells.count) cells.\n")
        print(StageCellResult.header)
        var failures: [String] = []
        let start = Date()
        for cell in cells {
            let result = try StageSweep.run(cell)
            print(result.row)
            fflush(nil)
            if !result.passes { failures.append(result.row) }
        }
        print("\n\(cells.count - failures.count) of \(cells.count) cells pass (\(Int(Date().timeIntervalSince(start))) s).")
        if !failures.isEmpty { print("Failing:\n" + failures.joined(separator: "\n")) }
    }
}
