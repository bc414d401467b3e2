// `foldback-rtcheck`: runs the engine on a paced audio thread with live control and proves it realtime-safe. Non-realtime driver.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CFoldback
import Foundation
import FoldbackEngine

@main
struct RealtimeCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foldback-rtcheck",
        abstract: "Prove the audio path allocates, frees and blocks nothing.",
        discussion: """
        Runs the engine's cycle on a dedicated audio thread, through fb_realtime_cycle (the same entry the
        JACK callback uses), while a control thread changes every kind of parameter and swaps in new graphs
        (--swaps of them, each with a 50 ms equal-power crossfade, as preset switches do; every other one
        continues the running graph's LV2 plugins, handing their instances over at the swap, and its sandboxed plugin's
        sandbox process, which is killed once and stopped once (a hang) mid-run and must come back), and a file source
        stretched by Rubber Band on its disk thread plays into a strip with its tempo and key moving (the audio
        thread, faster than real time, waits between cycles for the disk thread to have the next cycle's frames).
        With LD_PRELOAD=libFoldbackAllocCounter.so it counts mallocs and frees made on the audio path (must be 0),
        and in the sandbox processes' cycles too (each publishes its count in its shared memory).
        Built with -fsanitize=realtime (see `make rtsan`), RealtimeSanitizer aborts on any malloc, free, lock
        or blocking call inside the cycle.
        With --threads N (default 2) the engine renders each cycle with a render team: N − 1 worker threads
        take strips, sends and buses beside the audio thread, each work item inside the same checks
        (allocation counter and RealtimeSanitizer scope); the run fails unless the workers took items.

        Examples:
          LD_PRELOAD=.build/release/libFoldbackAllocCounter.so .build/release/foldback-rtcheck
          .build-rtsan/release/foldback-rtcheck --no-alloc-count
        """
    )

    @Option(help: "Cycles to run (at least 10000 for the verdict).") var cycles = 10_000
    @Option(help: "Frames per cycle.") var frames = 128
    @Option(help: "Microseconds the audio thread waits between cycles, so control work interleaves.") var pace = 50
    @Option(help: "Graph swaps (crossfaded preset switches) spread over the run.") var swaps = 200
    @Flag(help: "Make one cycle allocate on purpose, to prove the checks catch it (the run must then fail).") var injectFault = false
    @Option(help: "Render threads: the audio thread and N − 1 workers (1 checks the one-thread render).") var threads = 2
    @Flag(help: "Skip the allocation count (for the RealtimeSanitizer build, which checks allocations itself).") var noAllocCount = false

    func run() throws {
        let counter = AllocationCounter()
        if !noAllocCount {
            guard let counter else {
                throw ValidationError("the allocation counter is not loaded: run with LD_PRELOAD=<build dir>/libFoldbackAllocCounter.so, or pass --no-alloc-count")
            }
            guard counter.selfTest() else { throw CheckFailure("the allocation counter failed its self-test") }
        }
        let maxFrames = 256
        guard (1...Engine.maxRenderThreads).contains(threads) else { throw ValidationError("--threads must be 1…\(Engine.maxRenderThreads)") }
        var configuration = EngineConfiguration(maxFrames: maxFrames, renderThreads: threads)
        configuration.buildsBinauralMovesOnWorker = true   // as live: moved binaural sources ask fb-binaural
        let engine = Engine(configuration: configuration)
        guard engine.startLocalWorkers() else { throw CheckFailure("could not start \(threads - 1) render worker threads") }
        defer { engine.stopLocalWorkers() }
        let first = try RealtimeScenario.graph(maxFrames: maxFrames)
        let streams = RealtimeStreams()
        try streams.attach(to: first)
        let take = RealtimeTake()
        try take.attach(to: first)
        let player = try RealtimeFilePlayer()
        try player.attach(to: first)
        try engine.install(first, crossfade: .none)
        let stream = player.stream
        RealtimeMIDIClock.prepare()
        let sandboxFaults = RealtimeSandboxFaults()
        let audio = AudioThreadDriver(
            engine: engine, cycles: cycles, frames: frames, paceMicroseconds: pace, injectFault: injectFault,
            isSourceReady: { [frames] in stream.bufferedFrames >= frames })
        counter?.resetCounts()
        // The audio thread stays at most this many cycles ahead of the control loop (a tap holds 512 cycles).
        let lead = 48
        audio.allow(upTo: lead)
        audio.start()

        /// The cycle at which swap `n` (1…swaps) is due: spread evenly over the run.
        func swapCycle(_ n: Int) -> Int { n * cycles / (swaps + 1) }
        var applied = 0
        var swapped = 0
        var continuedPlugins = 0
        while !audio.isFinished {
            let done = engine.cycleCount
            let step = cycles / (RealtimeScenario.changes.count + 2)
            if applied < RealtimeScenario.changes.count, done >= (applied + 1) * step {
                let (address, value) = RealtimeScenario.changes[applied]
                try engine.set(address, to: value)
                applied += 1
            }
            try RealtimeMIDIClock.follow(engine)
            engine.collectGarbage()
            streams.service(cyclesDone: done, cycles: cycles)
            take.service(cyclesDone: done, cycles: cycles)
            player.service(cyclesDone: done)
            sandboxFaults.service(engine: engine, cyclesDone: done, cycles: cycles)
            // The next swap once its time has come and the previous fade is over (one graph held).
            // Odd swaps continue the running graph's plugins (the instance changes hands at the swap).
            if swapped < swaps, done >= swapCycle(swapped + 1), engine.liveGraphCount == 1, !sandboxFaults.isUnderway {
                let replacement = try RealtimeScenario.graph(
                    maxFrames: maxFrames, busGainDB: swapped % 2 == 0 ? -6 : 0, continuing: swapped % 2 == 1 ? engine.runningGraph : nil)
                try streams.attach(to: replacement)
                try take.attach(to: replacement)
                try player.attach(to: replacement)
                try engine.install(replacement, crossfade: Crossfade(duration: 0.05, law: .equalPower))
                continuedPlugins += replacement.continuedUnits.count
                swapped += 1
            }
            // Never far past a due swap: building its graph takes long enough for an unheld audio thread to run
            // 40-odd cycles on, so the last swap's fade could still be running when the counted cycles end.
            let nextSwap = swapped < swaps ? swapCycle(swapped + 1) : cycles
            audio.allow(upTo: min(done + lead, max(nextSwap, done) + 4))
            usleep(200)
        }
        audio.join()
        streams.service(cyclesDone: cycles, cycles: cycles)
        take.service(cyclesDone: cycles, cycles: cycles)
        engine.collectGarbage()
        sandboxFaults.finish(engine: engine, countingAllocations: counter != nil && !noAllocCount)

        var failures: [String] = []
        if cycles < 10_000 { failures.append("only \(cycles) cycles; the verdict needs at least 10000") }
        if !audio.ftzDazEnabled { failures.append("FTZ/DAZ was not set on the audio thread") }
        if applied != RealtimeScenario.changes.count { failures.append("only \(applied) of \(RealtimeScenario.changes.count) parameter changes were made") }
        if swapped != swaps { failures.append("only \(swapped) of \(swaps) graph swaps were made") }
        let expectedContinuations = swaps / 2 * (RealtimeScenario.pluginCount + RealtimeScenario.sandboxedCount + RealtimeScenario.feedbackUnitCount
            + RealtimeScenario.continuingEchoCount)
        if continuedPlugins != expectedContinuations {
            failures.append("\(continuedPlugins) units (plugins, sandboxed plugins, feedback units, echoes) continued across swaps, expected \(expectedContinuations)")
        }
        if engine.liveGraphCount != 1 { failures.append("graph swaps incomplete: \(engine.liveGraphCount) graphs still held") }
        if !audio.outputWasFinite { failures.append("non-finite output") }
        if audio.peak == 0 { failures.append("the output was silent") }
        failures += streams.failures + take.failures + player.failures + RealtimeMIDIClock.failures + sandboxFaults.failures
        let feedbackChanges = RealtimeScenario.feedbackChanges.load(ordering: .relaxed)
        if feedbackChanges == 0 { failures.append("the feedback units' analysis never moved a notch") }
        var summary = "foldback-rtcheck: \(audio.cyclesRun) cycles × \(frames) frames, \(applied) parameter changes, \(swapped) graph swaps (\(continuedPlugins) plugins, sandboxed plugins, feedback units and echoes continued), \(sandboxFaults.summary), \(streams.summary), \(player.summary), \(take.summary), \(feedbackChanges) feedback notch changes, \(RealtimeMIDIClock.summary)"
        if let team = engine.renderTeamStatistics {
            let workerItems = team.itemsByLane.dropFirst().reduce(0, +)
            summary += "; \(threads) render threads, workers ran \(workerItems) of \(team.itemsByLane.reduce(0, +)) work items, \(team.wakes) futex wakes in \(team.cycles) cycles"
            if workerItems == 0 { failures.append("the render workers took no work items") }
        }
        let rest = try RealtimeRest.run(engine: engine, frames: frames, maxFrames: maxFrames)
        summary += "; " + rest.summary
        failures += rest.failures
        if let counter, !noAllocCount {
            let counts = counter.counts
            summary += "; audio-path allocations \(counts.allocations), frees \(counts.frees)"
            if counts.allocations != 0 || counts.frees != 0 {
                failures.append("the audio path allocated \(counts.allocations)× (first size \(counts.firstSize) bytes) and freed \(counts.frees)×")
            }
        }
        if fb_realtime_sanitizer_enabled() != 0 { summary += "; RealtimeSanitizer on" }
        print(summary)
        for failure in failures { print("FAILED: \(failure)") }
        print("\(failures.isEmpty ? 1 : 0) passed, \(failures.isEmpty ? 0 : 1) failed")
        if !failures.isEmpty { throw ExitCode(1) }
    }
}

/// A failed check, reported as an error.
struct CheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
