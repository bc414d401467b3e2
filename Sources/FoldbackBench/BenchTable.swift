// The table `foldback bench` prints: each offline case built from its preset text, measured and formatted; the live search's summary. Non-realtime driver.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackGraph
import FoldbackPresets
import Foundation

/// The offline bench at one rate, block size and length: a header, one row per case as it is measured.
package struct BenchTable {
    package let rate: Double
    package let block: Int
    package let seconds: Double
    /// Whether the allocation counter is preloaded, so rows show audio-path mallocs + frees per cycle.
    package let isCountingAllocations = BenchRunner.audioAllocationCalls() != nil

    /// A table for cases of `seconds` of noise at `rate` Hz in `block`-frame blocks.
    package init(rate: Double, block: Int, seconds: Double) {
        self.rate = rate
        self.block = block
        self.seconds = seconds
    }

    /// The title line and the column headings.
    package var header: String {
        "foldback bench: \(Int(rate)) Hz, \(block)-frame blocks, \(seconds) s of noise per case, one thread\n"
            + "case".padding(toLength: 14, withPad: " ", startingAt: 0) + "   ns/sample   × realtime"
            + (isCountingAllocations ? "   mallocs/cycle" : "") + "   chain"
    }

    /// What follows the rows when allocations are not counted.
    package static let uncountedNote = "(audio-path mallocs not counted: run under LD_PRELOAD=…/libFoldbackAllocCounter.so)"

    /// Builds `benchCase` as `foldback run` would, measures it, and formats its row; `allocates` is true when
    /// the counter saw the audio path allocate. A case that cannot be built or run says so in its row.
    /// Measures `cases` in turn, handing `output` the header, a row per case as it is measured, and the note when
    /// no allocation counter is preloaded; returns the names of the cases whose audio path allocated.
    package func measure(_ cases: [BenchCase], output: (String) -> Void) -> [String] {
        output(header)
        var allocating: [String] = []
        for benchCase in cases {
            let row = row(benchCase)
            output(row.line)
            if row.allocates { allocating.append(benchCase.name) }
        }
        if !isCountingAllocations { output(Self.uncountedNote) }
        return allocating
    }

    package func row(_ benchCase: BenchCase) -> (line: String, allocates: Bool) {
        let name = benchCase.name.padding(toLength: 14, withPad: " ", startingAt: 0)
        do {
            let preset = try PresetLoader.parse(benchCase.preset, path: "<bench \(benchCase.name)>")
            let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: rate, maxFrames: block)
            let measurement = try BenchRunner(graph: graph, block: block, frames: Int(seconds * rate)).measure()
            let realtime = 1e9 / (measurement.nanosecondsPerSample * rate)
            let mallocs = measurement.allocationsPerCycle.map { String(format: " %15.2f", $0) } ?? ""
            return (name + String(format: " %11.2f %12.0f", measurement.nanosecondsPerSample, realtime) + mallocs + "   " + benchCase.summary,
                    (measurement.allocationsPerCycle ?? 0) > 0)
        } catch {
            return (name + "   unavailable: \(error)", false)
        }
    }

    /// A live search's result as the summary line gives it, judged `by` max or p99.
    package static func describe(_ best: BenchLive.Trial?, by: String) -> String {
        guard let best else { return "not even one strip fits in \(Int(BenchLive.budgetMicroseconds)) µs by \(by)" }
        return String(format: "%d strips of the chain (max %.1f µs, p99 %.1f µs of a %.0f µs budget)",
                      best.strips, best.maxMicroseconds, best.p99Microseconds, BenchLive.budgetMicroseconds)
    }

    /// The summary lines of a live search on `threads` threads: the largest fit, or with several threads both
    /// searches' fits and the gain.
    package static func summary(of outcome: BenchLive.Outcome, threads: Int, by: String) -> [String] {
        guard threads > 1 else { return ["largest fit: " + describe(outcome.best, by: by)] }
        var lines = ["largest fit, one thread: " + describe(outcome.oneThread, by: by),
                     "largest fit, \(threads) threads: " + describe(outcome.best, by: by)]
        if let one = outcome.oneThread, let many = outcome.best {
            lines.append(String(format: "gain: %d / %d strips = %.2f× one thread", many.strips, one.strips, Double(many.strips) / Double(one.strips)))
        }
        return lines
    }
}
