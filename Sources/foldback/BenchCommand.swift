// `foldback bench`: single-threaded speed of every built-in unit and of the reference vocal chain. Non-realtime driver.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import FoldbackLive
import FoldbackBench
import Foundation
import FoldbackEngine

/// Renders noise offline through one-strip graphs and reports CPU time per sample.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the speed of each built-in unit and of the reference vocal chain.",
        discussion: """
            Renders one-strip presets offline on one thread and prints each built-in unit's and the reference \
            vocal chain's CPU time per sample and × realtime (with the allocation counter preloaded, the \
            audio path's mallocs per cycle, which must be 0). --live finds the most reference-chain strips a \
            private dummy jackd (48 kHz, 64 frames) carries with the callback under half the period; \
            --threads N compares N threads with one; --lv2 ISOLATION runs the chain as LV2 plugins there. --sandbox \
            compares the LV2 chain in Foldback's process and in sandbox processes, per cycle. The whole story: docs/commands.md.

            EXAMPLES
              foldback bench
              foldback bench --live --threads 2
            """
    )

    @Option(help: "Sample rate, Hz.") var rate = 48000.0
    @Option(help: "Frames per block.") var block = 64
    @Option(help: "Seconds of audio rendered per case.") var seconds = 10.0
    @Option(help: "Run only the case with this name.") var only: String?
    @Flag(help: "Find how many reference-chain strips a dummy jackd at 48 kHz / 64 frames carries.") var live = false
    @Option(help: ArgumentHelp("With --live: judge the callback time by its max or p99.", valueName: "max|p99")) var by = "p99"
    @Option(help: ArgumentHelp("With --live: render each cycle on N threads (1…CPUs).", valueName: "N")) var threads = 1
    @Option(help: ArgumentHelp("With --live: each strip runs the vocal chain as LV2 plugins (x42 fil4, darc, swh plate) at this isolation.", valueName: "none|unit|strip"))
    var lv2: String?
    @Flag(help: "Compare the LV2 vocal chain in Foldback's process and in sandbox processes, per cycle, at 64 and 256 frames.") var sandbox = false
    @Option(name: .customLong("max-strips"), help: ArgumentHelp("With --live: try at most N strips (1…4096), e.g. to check that a machine carries a show of N.", valueName: "N"))
    var maxStrips = BenchLive.strips.upperBound

    func validate() throws {
        guard by == "max" || by == "p99" else { throw ValidationError("--by must be max or p99, got '\(by)'") }
        guard rate >= 8000, rate <= 384_000 else { throw ValidationError("--rate must be 8000…384000 Hz") }
        guard (1...EngineGraph.maxFramesLimit).contains(block) else { throw ValidationError("--block must be 1…\(EngineGraph.maxFramesLimit)") }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
        if let lv2, !["none", "unit", "strip"].contains(lv2) { throw ValidationError("--lv2 must be none, unit or strip, got '\(lv2)'") }
        if lv2 != nil && !live { throw ValidationError("--lv2 needs --live") }
        if sandbox && live { throw ValidationError("--sandbox and --live are separate benchmarks: run one at a time") }
        guard BenchLive.strips.contains(maxStrips) else { throw ValidationError("--max-strips must be 1…\(BenchLive.strips.upperBound), got \(maxStrips)") }
    }

    func run() throws {
        if let problem = RenderThreads.problem(with: threads) {
            StandardError.writeLine("foldback bench: \(problem)")
            throw ExitCode(2)
        }
        if threads != 1 && !live {
            StandardError.writeLine("foldback bench: --threads needs --live (the offline cases run on one thread)")
            throw ExitCode(2)
        }
        if live { return try runLive() }
        if sandbox {
            do {
                try BenchSandbox(seconds: CommandLine.arguments.contains("--seconds") ? seconds : 2).run { print($0) }
            } catch {
                StandardError.writeLine("foldback bench --sandbox: \(error)")
                throw ExitCode(1)
            }
            return
        }
        let cases = BenchCases.all.filter { only == nil || $0.name == only }
        guard !cases.isEmpty else {
            throw ValidationError("no case named '\(only ?? "")'; the cases are: \(BenchCases.all.map(\.name).joined(separator: ", "))")
        }
        let held = BenchLogHold.installed   // a unit's log lines (the feedback case's analysis) wait until the table is done
        let allocating = BenchTable(rate: rate, block: block, seconds: seconds).measure(cases) { print($0) }
        if let summary = held.summary { StandardError.writeLine(summary) }
        if !allocating.isEmpty {
            StandardError.writeLine("foldback bench: the audio path allocated in: \(allocating.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }

    /// `--live`: the strip-count search on a private dummy jackd.
    private func runLive() throws {
        do {
            let seconds = CommandLine.arguments.contains("--seconds") ? self.seconds : 3
            let outcome = try BenchLive(seconds: seconds, byP99: by == "p99", threads: threads, maximumStrips: maxStrips, lv2Isolation: lv2).run()
            for line in BenchTable.summary(of: outcome, threads: threads, by: by) { print(line) }
        } catch {
            StandardError.writeLine("foldback bench --live: \(error)")
            throw ExitCode(1)
        }
    }
}
