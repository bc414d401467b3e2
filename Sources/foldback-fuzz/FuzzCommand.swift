// `foldback-fuzz`: feeds mutated and extreme preset, curve and setlist files to the loaders, and mutated page messages to the web request parser; a crash or hang fails it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CFoldbackFuzz
import FoldbackPresets
#if canImport(Glibc)
import Glibc
#endif

/// The loaders' fuzz run: every input must load or be refused with a located error, never crash or hang.
@main
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foldback-fuzz",
        abstract: "Fuzz Foldback's preset, curve and setlist loaders and its web request parser with mutated and extreme inputs.",
        discussion: """
            Each input goes through the preset loader (and the report 'foldback check' prints), the curve \
            loader and the setlist loader. It must load, or be refused with diagnostics naming the file and \
            a line; a crash or a hang fails the run. The inputs are the hand-made extremes (empty, binary, \
            10,000-deep nesting, 2,000 strips, 10,000-character names, ...) and mutations of the seed files: \
            bit flips, TOML tokens and Foldback keys inserted (also at line starts), runs cut, copied and \
            spliced from other seeds, lines swapped. A run is repeatable from its seed.

            Then mutated web page messages (a parameter move, a command, the analyser's source, a meter rate) \
            go through the web surface's request parser: each must be refused as malformed or taken within a \
            request's limits (a path of at most 256 bytes, a finite value, a meter rate of 0 to 25).

            A crashing input is saved to SAVE-DIR/crash.toml, a hanging one to SAVE-DIR/hang.toml; \
            replay it with 'foldback check FILE' (a web message: send the file's text over a page's WebSocket). \
            Exit status 0 when clean, 1 on unlocated errors or a web message taken out of bounds, 3 on a \
            hang, and the crash's signal when one crashes.

            EXAMPLES
              foldback-fuzz                                  # 20,000 inputs, as 'make test' runs it
              foldback-fuzz --seconds 3600 --seed 7          # an hour with another seed
              foldback-fuzz --cases 1000000 --seed $RANDOM   # a million inputs
            """
    )

    @Option(help: "How many mutated inputs to run (the extremes come on top).")
    var cases = 20_000

    @Option(help: "How many mutated web page messages to run after the files.")
    var webMessages = 20_000

    @Option(help: "Run until this many seconds have passed instead of counting cases (0: count cases).")
    var seconds = 0.0

    @Option(help: "The mutation seed; the same seed and corpus give the same inputs.")
    var seed: UInt64 = 1

    @Option(name: .customLong("corpus"), help: "A folder of .toml seed files (repeatable).")
    var corpora: [String] = ["presets", "presets/curves"]

    @Option(help: "Where a crashing or hanging input is saved.")
    var saveDir = ".build/fuzz"

    @Option(help: "An input running this long counts as a hang.")
    var hangSeconds = 10.0

    func run() throws {
        let seeds = try corpora.flatMap { folder in try SeedCorpus.files(in: folder) } + SeedCorpus.builtIn
        _ = mkdir(saveDir, 0o755)
        guard fb_fuzz_capture_arm(saveDir + "/crash.toml", saveDir + "/hang.toml", hangSeconds) == 0 else {
            throw ValidationError("cannot start the hang watchdog")
        }
        let started = Self.now()
        var tally = LoaderTally()
        var index: UInt64 = 0
        let extremes = ExtremeInputs.all()
        for (name, bytes) in extremes {
            probe(bytes, name: "extreme '\(name)'", index: index, into: &tally)
            index += 1
        }
        var mutator = PresetMutator(seeds: seeds.map(\.bytes), seed: seed)
        var mutated = 0
        while seconds > 0 ? Self.now() - started < seconds : mutated < cases {
            probe(mutator.next(), name: "case \(mutated) (seed \(seed))", index: index, into: &tally)
            mutated += 1
            index += 1
            if mutated % 5_000 == 0 { Self.note("foldback-fuzz: \(mutated) inputs...") }
        }
        let elapsed = Self.now() - started
        print("foldback-fuzz: \(extremes.count) extreme and \(mutated) mutated inputs from \(seeds.count) seeds (seed \(seed)), "
            + "each through the preset, curve and setlist loaders, in \(String(format1: elapsed)) s: \(tally.loaded) loads, "
            + "\(tally.refused) located refusals, \(tally.notText) not UTF-8; 0 crashes, 0 hangs, \(tally.unlocated.count) unlocated errors")
        var web = WebMessageTally()
        var messages = WebMessageProbe(seed: seed)
        for number in 0..<webMessages {
            let bytes = messages.next()
            bytes.withUnsafeBufferPointer { buffer in
                fb_fuzz_capture_begin(buffer.baseAddress, buffer.count, index)
                WebMessageProbe.run(bytes, name: "web message \(number) (seed \(seed))", into: &web)
                fb_fuzz_capture_end()
            }
            index += 1
        }
        print("foldback-fuzz: \(webMessages) mutated web page messages through the request parser: \(web.taken) taken within limits, "
            + "\(web.refused) refused as malformed; 0 crashes, 0 hangs, \(web.outOfBounds.count) taken out of bounds")
        for line in web.outOfBounds { Self.note("foldback-fuzz: a web message taken outside a request's limits: \(line)") }
        guard tally.unlocated.isEmpty, web.outOfBounds.isEmpty else {
            for line in tally.unlocated { Self.note("foldback-fuzz: refused without a file:line location: \(line)") }
            throw ExitCode(1)
        }
    }

    private func probe(_ bytes: [UInt8], name: String, index: UInt64, into tally: inout LoaderTally) {
        bytes.withUnsafeBufferPointer { buffer in
            fb_fuzz_capture_begin(buffer.baseAddress, buffer.count, index)
            LoaderProbe.run(bytes, name: name, into: &tally)
            fb_fuzz_capture_end()
        }
    }

    /// A progress or problem line on standard error (one write; standard output keeps the summary).
    private static func note(_ line: String) {
        _ = (line + "\n").utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

extension String {
    /// A number with one decimal, without Foundation.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
