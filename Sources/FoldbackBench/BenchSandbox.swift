// `foldback bench --sandbox`: what running LV2 plugins in sandbox processes costs per cycle against Foldback's own process. Non-realtime driver of the realtime cycle.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
import FoldbackEngine
import FoldbackGraph
import FoldbackLV2
import FoldbackPresets
import FoldbackSandbox
import Glibc

/// The LV2 vocal chain (x42 fil4 → x42 darc → swh plate on one mono strip, as `presets/lv2-vocal.toml`) run cycle by
/// cycle on this thread, paced at the period as JACK would (SCHED_FIFO where allowed, the sandboxes too), with its
/// plugins in Foldback's process (`isolation = "none"`), each in a sandbox process (`"unit"`) and all three in one
/// (`"strip"`), taking turns round by round so all see the same machine. Per cycle: the wall time of the whole cycle (median, p99), and the CPU time of
/// Foldback's process (every thread: the cycle's, the LV2 worker's, the supervisor's) and of the sandbox processes (every
/// thread too), from /proc/<pid>/task/*/schedstat, and the wall time the cycle's thread waited for the sandboxes.
package struct BenchSandbox {
    package let seconds: Double
    package let rounds: Int
    package static let sampleRate = 48_000.0
    package static let blocks = [64, 256]
    package static let isolations = ["none", "unit", "strip"]

    /// A comparison of `rounds` rounds, each running every isolation for `seconds` at each block size.
    package init(seconds: Double, rounds: Int = 3) {
        (self.seconds, self.rounds) = (seconds, rounds)
    }

    /// One isolation's figures at one block size, summed over the rounds.
    package struct Figures {
        package var cycleNanoseconds: [UInt64] = []
        package var threadCPU: UInt64 = 0
        package var sandboxCPU: UInt64 = 0
        package var cycles = 0
        package var late = 0
        /// Wall time Foldback's thread waited for the sandboxes (ns, in all).
        package var wait: UInt64 = 0

        func percentile(_ p: Double) -> Double {
            let sorted = cycleNanoseconds.sorted()
            guard !sorted.isEmpty else { return 0 }
            return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000
        }
        var median: Double { percentile(0.5) }
        var p99: Double { percentile(0.99) }
        /// CPU per cycle, µs: Foldback's process, the sandboxes.
        var threadMicroseconds: Double { Double(threadCPU) / Double(max(1, cycles)) / 1000 }
        var sandboxMicroseconds: Double { Double(sandboxCPU) / Double(max(1, cycles)) / 1000 }
        /// Foldback's wait for the sandboxes per cycle, µs.
        var waitMicroseconds: Double { Double(wait) / Double(max(1, cycles)) / 1000 }
    }

    /// Runs the comparison, printing a row per block size and isolation, and a summary per block size.
    package func run(output: (String) -> Void) throws {
        let realtime = Self.enterRealtime()
        output(String(format: "foldback bench --sandbox: the LV2 vocal chain (fil4 → darc → plate), 48 kHz, %.1f s × %d rounds per row, cycles paced at the period on %@",
                      seconds, rounds, realtime ? "SCHED_FIFO 10 (the sandboxes too)" : "normal priority (SCHED_FIFO not allowed)"))
        output("block  isolation   median µs   p99 µs   Foldback CPU µs   sandbox CPU µs   total CPU µs   late   wait µs")
        for block in Self.blocks {
            var figures = Dictionary(uniqueKeysWithValues: Self.isolations.map { ($0, Figures()) })
            for _ in 0..<rounds {
                for isolation in Self.isolations { try measure(isolation: isolation, block: block, into: &figures[isolation, default: Figures()]) }
            }
            for isolation in Self.isolations {
                let f = figures[isolation, default: Figures()]
                output(String(format: "%5d  %-9@ %11.1f %8.1f %17.1f %16.1f %14.1f %6d %9.1f", block, isolation, f.median, f.p99, f.threadMicroseconds,
                              f.sandboxMicroseconds, f.threadMicroseconds + f.sandboxMicroseconds, f.late, f.waitMicroseconds))
            }
            let none = figures["none", default: Figures()], unit = figures["unit", default: Figures()]
            let noneCPU = none.threadMicroseconds + none.sandboxMicroseconds, unitCPU = unit.threadMicroseconds + unit.sandboxMicroseconds
            output(String(format: "%5d  per sandboxed unit: +%.1f µs of the cycle (median), +%.1f µs CPU; the chain sandboxed: %+.0f %% CPU (a period is %.0f µs)",
                          block, (unit.median - none.median) / 3, (unitCPU - noneCPU) / 3, 100 * (unitCPU / max(noneCPU, 0.001) - 1),
                          Double(block) / Self.sampleRate * 1e6))
            let strip = figures["strip", default: Figures()]
            let stripCPU = strip.threadMicroseconds + strip.sandboxMicroseconds
            output(String(format: "%5d  the chain in one sandbox (strip): +%.1f µs of the cycle (median), %.2f× the CPU of none (issue target ≤ 1.15× at 256)",
                          block, strip.median - none.median, stripCPU / max(noneCPU, 0.001)))
        }
    }

    /// The chain's preset with its plugins at `isolation`: one mono strip into a stereo bus, no limiter.
    package static func preset(isolation: String) -> String {
        BenchCases.preset(units: BenchCases.lv2Chain(isolation: isolation), limiter: false)
    }

    private func measure(isolation: String, block: Int, into figures: inout Figures) throws {
        let preset = try PresetLoader.parse(Self.preset(isolation: isolation), path: "<bench --sandbox \(isolation)>")
        let hosting = PluginHosting.live(period: block, priority: 10)
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: Self.sampleRate, maxFrames: block, hosting: hosting)
        let engine = Engine(configuration: EngineConfiguration(maxFrames: block, inputCapacity: 1, outputCapacity: 2))
        try engine.install(graph, crossfade: .none)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let outputs = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { input.deallocate(); outputs.forEach { $0.deallocate() } }
        var seed: UInt32 = 0x9E37_79B9
        for frame in 0..<block {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            input[frame] = (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.5
        }
        engine.io.pointee.inputCount = 1
        engine.io.pointee.inputs[0] = UnsafePointer(input)
        engine.io.pointee.outputCount = 2
        for channel in 0..<2 { engine.io.pointee.outputs[channel] = outputs[channel] }
        let sandboxes = Self.sandboxes(of: graph)
        let period = UInt64(Double(block) / Self.sampleRate * 1e9)
        let context = engine.cycleContext
        fb_realtime_enable_ftz_daz()
        var next = Self.now()
        func cycle() -> UInt64 {
            next += period
            let start = Self.now()
            fb_realtime_cycle(Engine.cycleFunction, context, UInt32(block))
            let took = Self.now() - start
            Self.sleep(until: next)
            return took
        }
        for _ in 0..<Int(0.3 * Self.sampleRate) / block { _ = cycle() }   // warm-up: caches, the sandboxes' first cycles
        let late = sandboxes.reduce(0) { $0 + $1.channel.lateTotal }
        let waited = sandboxes.reduce(0) { $0 + $1.channel.waitNanoseconds }
        let cycles = max(1, Int(seconds * Self.sampleRate) / block)
        let sandboxBefore = sandboxes.reduce(0) { $0 + Self.processCPU($1.processIdentifier) }
        let foldbackBefore = Self.processCPU(getpid())
        for _ in 0..<cycles { figures.cycleNanoseconds.append(cycle()) }
        figures.threadCPU += Self.processCPU(getpid()) - foldbackBefore
        figures.sandboxCPU += sandboxes.reduce(0) { $0 + Self.processCPU($1.processIdentifier) } - sandboxBefore
        figures.late += sandboxes.reduce(0) { $0 + $1.channel.lateTotal } - late
        figures.wait += UInt64(sandboxes.reduce(0) { $0 + $1.channel.waitNanoseconds } - waited)
        figures.cycles += cycles
    }

    /// The sandbox processes of `graph`'s strips, each once (a strip's plugins share one with `"strip"`).
    static func sandboxes(of graph: EngineGraph?) -> [SandboxProcess] {
        var sandboxes: [SandboxProcess] = []
        for process in (graph?.description.strips ?? []).flatMap(\.units).compactMap({ ($0 as? SandboxedUnit)?.process })
        where !sandboxes.contains(where: { $0 === process }) { sandboxes.append(process) }
        return sandboxes
    }

        /// CPU time (ns) of every thread of process `pid`, from /proc/<pid>/task/*/schedstat; 0 when unknown.
    static func processCPU(_ pid: Int32?) -> UInt64 {
        guard let pid, let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return 0 }
        return tasks.reduce(0) { total, task in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
            return total + (text.split(separator: " ").first.flatMap { UInt64($0) } ?? 0)
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func sleep(until instant: UInt64) {
        var time = timespec(tv_sec: Int(instant / 1_000_000_000), tv_nsec: Int(instant % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }

    private static func enterRealtime() -> Bool {
        var parameters = sched_param(sched_priority: 10)
        return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0
    }
}
