// `foldback bench`: single-threaded speed of every built-in unit and of the reference vocal chain. Non-realtime driver.
import ArgumentParser
import CFoldback
import Foundation
import FoldbackEngine
import FoldbackPresets

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
            Foldback is built for: 10-band EQ → compressor → reverb (mono in, stereo out) → bus limiter.

            Cycles run as on the JACK thread (FTZ/DAZ, through the realtime cycle wrapper). Run under the \
            allocation counter (LD_PRELOAD=.build/release/libFoldbackAllocCounter.so, as \
            Benchmarks/bench.sh does) and a column shows audio-path mallocs + frees per cycle, which \
            must be 0; the command then exits 1 if any case allocates.

            EXAMPLES
              foldback bench
              foldback bench --block 256 --seconds 30
              foldback bench --only vocal_chain
              LD_PRELOAD=.build/release/libFoldbackAllocCounter.so .build/release/foldback bench
            """
    )

    @Option(help: "Sample rate, Hz.") var rate = 48000.0
    @Option(help: "Frames per block.") var block = 64
    @Option(help: "Seconds of audio rendered per case.") var seconds = 10.0
    @Option(help: "Run only the case with this name.") var only: String?

    func validate() throws {
        guard rate >= 8000, rate <= 384_000 else { throw ValidationError("--rate must be 8000…384000 Hz") }
        guard (1...EngineGraph.maxFramesLimit).contains(block) else { throw ValidationError("--block must be 1…\(EngineGraph.maxFramesLimit)") }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
    }

    func run() throws {
        let cases = BenchCases.all.filter { only == nil || $0.name == only }
        guard !cases.isEmpty else {
            throw ValidationError("no case named '\(only ?? "")'; the cases are: \(BenchCases.all.map(\.name).joined(separator: ", "))")
        }
        print("foldback bench: \(Int(rate)) Hz, \(block)-frame blocks, \(seconds) s of noise per case, one thread")
        let counting = fb_alloc_probe_available() != 0
        print("case".padding(toLength: 14, withPad: " ", startingAt: 0) + "   ns/sample   × realtime" + (counting ? "   mallocs/cycle" : "") + "   chain")
        var allocating: [String] = []
        for benchCase in cases {
            do {
                let preset = try PresetLoader.parse(benchCase.preset, path: "<bench \(benchCase.name)>")
                let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: rate, maxFrames: block)
                let measurement = BenchRunner(graph: graph, block: block, frames: Int(seconds * rate)).measure()
                let realtime = 1e9 / (measurement.nanosecondsPerSample * rate)
                let mallocs = measurement.allocationsPerCycle.map { String(format: " %15.2f", $0) } ?? ""
                if let perCycle = measurement.allocationsPerCycle, perCycle > 0 { allocating.append(benchCase.name) }
                print(benchCase.name.padding(toLength: 14, withPad: " ", startingAt: 0)
                      + String(format: " %11.2f %12.0f", measurement.nanosecondsPerSample, realtime) + mallocs + "   " + benchCase.summary)
            } catch {
                print(benchCase.name.padding(toLength: 14, withPad: " ", startingAt: 0) + "   unavailable: \(error)")
            }
        }
        if !counting {
            print("(audio-path mallocs not counted: run under LD_PRELOAD=…/libFoldbackAllocCounter.so)")
        } else if !allocating.isEmpty {
            StandardError.writeLine("foldback bench: the audio path allocated in: \(allocating.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }
}
