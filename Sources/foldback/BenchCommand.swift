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
            Each case is a one-strip preset (mono in) built exactly as 'foldback run' builds it and rendered \
            offline on one thread, in blocks of --block frames at --rate, from noise at −12 dBFS. Reported: \
            nanoseconds of CPU time per input sample (thread CPU time, so other load on the machine does not \
            count) and how many times faster than realtime that is. The reference vocal chain is the one \
            Foldback is built for: 10-band EQ → compressor → reverb (mono in, stereo out) → bus limiter. The \
            console case is a whole monitor console like presets/monitor-console.toml (several strips, four \
            buses with their own units, a reverb effect bus and its return, aligned paths): its figure is \
            the CPU time per frame of the whole graph, as is strips_128's (128 strips with a gain unit and two \
            sends each: what every strip costs besides its units; divide by 128 for one strip) and chains_128's \
            (128 reference chains into one bus, what --live runs, without JACK).

            Cycles run as on the JACK thread (FTZ/DAZ, through the realtime cycle wrapper). Run under the \
            allocation counter (LD_PRELOAD=.build/release/libFoldbackAllocCounter.so, as \
            Benchmarks/bench.sh does) and a column shows audio-path mallocs + frees per cycle, which \
            must be 0; the command then exits 1 if any case allocates.

            --live starts a private dummy jackd at 48000 Hz / 64 frames, runs N mono strips of the \
            reference vocal chain into one limited stereo bus, feeds each strip noise from a JACK test \
            player, and times Foldback's own process callback inside the callback (monotonic clock, \
            1 µs histogram) for --seconds per trial (default 3 here). N doubles until the callback time \
            exceeds 50 % of the period (667 µs) or N reaches --max-strips, then is bisected; a count that misses in one trial is \
            tried once more and fits if that trial does (a burst of other load on a shared machine can push \
            one trial over). The count found is then measured again and must fit a second time, or the \
            search goes on below it (one quiet trial can let a count through that fails on every later look). Reported: the largest N that fits, with its max and p99. --by p99 (default) judges by the 99th percentile, since on a shared \
            machine one preemption of the audio thread can set the max; --by max judges by the longest \
            callback (use it on a quiet machine with a realtime kernel). --threads N renders each cycle on N \
            threads as 'foldback run --threads N' does (the process callback and N − 1 workers JACK \
            creates), and a one-thread search takes turns with it, count by count, so both run under the \
            same load; it reports both largest fits and the gain (N-thread strips ÷ one-thread strips). \
            More columns show the workers' share of the work items, the futex wakes per cycle and each \
            row's thread count.

            EXAMPLES
              foldback bench
              foldback bench --block 256 --seconds 30
              foldback bench --only vocal_chain
              LD_PRELOAD=.build/release/libFoldbackAllocCounter.so .build/release/foldback bench
              foldback bench --live
              foldback bench --live --by max --seconds 5
              foldback bench --live --threads 2
              foldback bench --live --max-strips 48
            """
    )

    @Option(help: "Sample rate, Hz.") var rate = 48000.0
    @Option(help: "Frames per block.") var block = 64
    @Option(help: "Seconds of audio rendered per case.") var seconds = 10.0
    @Option(help: "Run only the case with this name.") var only: String?
    @Flag(help: "Find how many reference-chain strips a dummy jackd at 48 kHz / 64 frames carries.") var live = false
    @Option(help: ArgumentHelp("With --live: judge the callback time by its max or p99.", valueName: "max|p99")) var by = "p99"
    @Option(help: ArgumentHelp("With --live: render each cycle on N threads (1…CPUs).", valueName: "N")) var threads = 1
    @Option(name: .customLong("max-strips"), help: ArgumentHelp("With --live: try at most N strips (1…4096), e.g. to check that a machine carries a show of N.", valueName: "N"))
    var maxStrips = BenchLive.strips.upperBound

    func validate() throws {
        guard by == "max" || by == "p99" else { throw ValidationError("--by must be max or p99, got '\(by)'") }
        guard rate >= 8000, rate <= 384_000 else { throw ValidationError("--rate must be 8000…384000 Hz") }
        guard (1...EngineGraph.maxFramesLimit).contains(block) else { throw ValidationError("--block must be 1…\(EngineGraph.maxFramesLimit)") }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
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
        let cases = BenchCases.all.filter { only == nil || $0.name == only }
        guard !cases.isEmpty else {
            throw ValidationError("no case named '\(only ?? "")'; the cases are: \(BenchCases.all.map(\.name).joined(separator: ", "))")
        }
        let allocating = BenchTable(rate: rate, block: block, seconds: seconds).measure(cases) { print($0) }
        if !allocating.isEmpty {
            StandardError.writeLine("foldback bench: the audio path allocated in: \(allocating.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }

    /// `--live`: the strip-count search on a private dummy jackd.
    private func runLive() throws {
        do {
            let seconds = CommandLine.arguments.contains("--seconds") ? self.seconds : 3
            let outcome = try BenchLive(seconds: seconds, byP99: by == "p99", threads: threads, maximumStrips: maxStrips).run()
            for line in BenchTable.summary(of: outcome, threads: threads, by: by) { print(line) }
        } catch {
            StandardError.writeLine("foldback bench --live: \(error)")
            throw ExitCode(1)
        }
    }
}
