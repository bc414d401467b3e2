// Tests `foldback render` end to end: formats, resampling, tails, bad input, determinism, block sizes, batches. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest
import FoldbackTestSupport

final class RenderCommandTests: XCTestCase {
    private var files: RenderFixtures!

    override func setUpWithError() throws { files = try RenderFixtures() }
    override func tearDownWithError() throws { files.remove() }

    private func render(_ arguments: [String]) throws -> FoldbackRun {
        try FoldbackProcess.run(["render"] + arguments)
    }

    /// A unity mono chain is transparent: float is exact, 24-bit WAV and FLAC within one 24-bit step.
    func testFormatsRoundTrip() throws {
        let input = RenderFixtures.noise(12_345)
        let take = try files.write("take.wav", [input])
        let preset = try files.preset("unity.toml", RenderFixtures.chain())
        for (format, name, tolerance) in [("wav32f", "out.wav", Float(0)), ("wav24", "out24.wav", 1.0 / 8_388_608), ("flac", "out.flac", 1.0 / 8_388_608)] {
            let run = try render([preset, "-i", take, "-o", files.path(name), "--format", format, "--tail", "0"])
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertTrue(run.standardOutput.contains("main → \(files.path(name)) (\(format))"), run.standardOutput)
            let output = try files.read(name)
            XCTAssertEqual(output.rate, 48_000)
            XCTAssertEqual(output.channels.count, 1)
            XCTAssertEqual(output.channels[0].count, input.count, format)
            XCTAssertLessThanOrEqual(RenderFixtures.maxDifference(output.channels, [input]), tolerance, format)
        }
        let inferred = try render([preset, "-i", take, "-o", files.path("auto.flac"), "--tail", "0"])
        XCTAssertTrue(inferred.standardOutput.contains("auto.flac (flac)"), "a .flac path defaults to FLAC: \(inferred.standardOutput)")
    }

    /// A 44.1 kHz file rendered at 48 kHz is resampled (and says so): length scales, a 1 kHz tone keeps its level.
    func testResamplingIsReportedAndKeepsLengthAndLevel() throws {
        let take = try files.write("take441.wav", [RenderFixtures.sine(44_100, frequency: 1000, rate: 44_100)], rate: 44_100)
        let preset = try files.preset("unity.toml", RenderFixtures.chain())
        let run = try render([preset, "-i", take, "-o", files.path("out.wav"), "--rate", "48000", "--tail", "0"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("resampled 44100 Hz → 48000 Hz"), run.standardOutput)
        let output = try files.read("out.wav")
        XCTAssertEqual(output.rate, 48_000)
        XCTAssertEqual(Double(output.channels[0].count), 48_000, accuracy: 2, "1 s stays 1 s")
        let middle = output.channels[0][12_000..<36_000]
        XCTAssertEqual(middle.map(abs).max() ?? 0, 0.5, accuracy: 0.005, "peak of the 0.5 sine")
        let crossings = zip(middle.dropLast(), middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        XCTAssertEqual(crossings, 500, accuracy: 1, "1 kHz over 0.5 s at the new rate")
    }

    /// --tail auto keeps the reverb tail and stops once every bus has stayed below −90 dBFS for 0.1 s.
    func testAutomaticTailKeepsTheReverbAndStopsBelowMinus90() throws {
        let burst = Array(RenderFixtures.noise(24_000))
        let take = try files.write("burst.wav", [burst])
        let preset = try files.preset("verb.toml", RenderFixtures.chain(
            units: "\n  [[strip.unit]]\n  type = \"reverb\"\n  decay_s = 1.0\n  mix = 0.5\n", busChannels: 2))
        let run = try render([preset, "-i", take, "-o", files.path("tail.wav")])
        XCTAssertEqual(run.status, 0, run.standardError)
        let output = try files.read("tail.wav").channels
        let frames = output[0].count
        XCTAssertGreaterThan(frames, 24_000 + 48_000, "a 1 s reverb rings for more than a second after the input")
        XCTAssertLessThan(frames, 24_000 + 30 * 48_000, "stopped before the cap")
        XCTAssertFalse(run.standardOutput.contains("cap"), run.standardOutput)
        let threshold = Float(pow(10, -90.0 / 20))
        for channel in output {
            XCTAssertTrue(channel[(frames - 4_800)...].allSatisfy { abs($0) < threshold }, "last 0.1 s below −90 dBFS")
            XCTAssertGreaterThan(channel[(24_000 + 24_000)..<(24_000 + 28_800)].map(abs).max() ?? 0, Float(pow(10, -60.0 / 20)),
                                 "0.5 s after the input the tail is still audible")
        }
    }

    /// Missing, unreadable and mis-channelled inputs, unknown strips and buses: exit 2, a clear message, nothing written.
    func testBadInputExitsTwoWithTheReasonAndWritesNothing() throws {
        let preset = try files.preset("unity.toml", RenderFixtures.chain())
        let good = try files.write("good.wav", [RenderFixtures.noise(1000)])
        let threeChannels = try files.write("three.wav", [[Float]](repeating: RenderFixtures.noise(1000), count: 3))
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: files.path("text.wav")))
        let output = files.path("out.wav")
        let cases: [([String], String)] = [
            (["-i", files.path("missing.wav"), "-o", output], "Cannot open audio file \(files.path("missing.wav"))"),
            (["-i", files.path("text.wav"), "-o", output], "Cannot open audio file \(files.path("text.wav"))"),
            (["-i", threeChannels, "-o", output], "three.wav has 3 channels; a mono strip takes a mono or stereo file"),
            (["--input", "voc=\(good)", "-o", output], "the preset has no strip 'voc'; its strips are: vox"),
            (["-i", good, "--output", "mian=\(output)"], "the preset has no bus 'mian'; its buses are: main"),
            (["-i", good, "-o", files.path("no/such/dir/out.wav")], "output for bus 'main': Cannot create audio file"),
        ]
        let before = files.contents
        for (arguments, message) in cases {
            let run = try render([preset] + arguments)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
            XCTAssertEqual(files.contents, before, "nothing left behind by \(arguments)")
        }
        let usage = try render([preset, "-i", good, "-o", output, "--tail", "forever"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.standardError.contains("--tail must be 'auto' or seconds"), usage.standardError)
    }

    /// The reference vocal chain renders bit-identically twice, and identically (±1e-6) at blocks 1, 7, 253, 1024.
    func testRenderIsDeterministicAndBlockSizeIndependent() throws {
        let take = try files.write("take.wav", [RenderFixtures.noise(30_000)])
        let preset = try files.preset("vocal.toml", RenderFixtures.chain(units: RenderFixtures.vocalUnits, busChannels: 2, limiter: true))
        for name in ["a.wav", "b.wav"] {
            let run = try render([preset, "-i", take, "-o", files.path(name), "--tail", "0.5"])
            XCTAssertEqual(run.status, 0, run.standardError)
        }
        let first = try Data(contentsOf: URL(fileURLWithPath: files.path("a.wav")))
        XCTAssertEqual(first, try Data(contentsOf: URL(fileURLWithPath: files.path("b.wav"))), "bit-identical reruns")
        let reference = try files.read("a.wav").channels
        XCTAssertEqual(reference[0].count, 30_000 + 24_000)
        for block in [1, 7, 253, 1024] {
            let name = "block\(block).wav"
            let run = try render([preset, "-i", take, "-o", files.path(name), "--tail", "0.5", "--block", "\(block)"])
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertLessThanOrEqual(RenderFixtures.maxDifference(try files.read(name).channels, reference), 1e-6, "block \(block)")
        }
    }

    /// --each with '{}' paths renders one set per name, in parallel with --jobs, each equal to a single render.
    func testBatchRendersEverySetInParallel() throws {
        try files.write("one.wav", [RenderFixtures.noise(20_000, seed: 1)])
        try files.write("two.wav", [RenderFixtures.noise(15_000, seed: 2)])
        let preset = try files.preset("vocal.toml", RenderFixtures.chain(units: RenderFixtures.vocalUnits, busChannels: 2))
        try "one\n# a comment\n\ntwo\n".write(toFile: files.path("list.txt"), atomically: true, encoding: .utf8)
        let run = try render([preset, "-i", files.path("{}.wav"), "-o", files.path("{}-mix.wav"),
                              "--each-from", files.path("list.txt"), "--jobs", "2", "--tail", "0"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("foldback: rendered") }.count, 2, run.standardOutput)
        let single = try render([preset, "-i", files.path("two.wav"), "-o", files.path("single.wav"), "--tail", "0"])
        XCTAssertEqual(single.status, 0, single.standardError)
        XCTAssertEqual(try files.read("two-mix.wav").channels, try files.read("single.wav").channels)
        XCTAssertEqual(try files.read("one-mix.wav").channels[0].count, 20_000)

        let unfilled = try render([preset, "-i", files.path("{}.wav"), "-o", files.path("out.wav")])
        XCTAssertEqual(unfilled.status, 2)
        XCTAssertTrue(unfilled.standardError.contains("no --each NAME"), unfilled.standardError)
    }

    /// A stereo file into a mono strip is mixed as 0.5·(L+R), and the report says so.
    func testStereoFileIntoMonoStripIsMixedDown() throws {
        let left = RenderFixtures.noise(5_000, seed: 3)
        let right = RenderFixtures.noise(5_000, seed: 4)
        let take = try files.write("stereo.wav", [left, right])
        let preset = try files.preset("unity.toml", RenderFixtures.chain())
        let run = try render([preset, "-i", take, "-o", files.path("mono.wav"), "--tail", "0"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("stereo file mixed to mono as 0.5·(L+R)"), run.standardOutput)
        let expected = zip(left, right).map { 0.5 * ($0 + $1) }
        XCTAssertLessThanOrEqual(RenderFixtures.maxDifference(try files.read("mono.wav").channels, [expected]), 1e-7)
    }

    /// An LV2 plugin (swh plate, mono in → stereo out) renders through the synchronous worker:
    /// stereo, a reverb tail past the input, bit-identical on a rerun and at another block size.
    func testLV2PluginRendersDeterministically() throws {
        let preset = try files.preset("plate.toml", RenderFixtures.chain(
            units: "\n  [[strip.unit]]\n  type = \"lv2\"\n  uri = \"http://plugin.org.uk/swh-plugins/plate\"\n", busChannels: 2))
        guard try FoldbackProcess.run(["check", preset]).status == 0 else { throw XCTSkip("swh-lv2's plate is not installed") }
        let take = try files.write("burst.wav", [RenderFixtures.noise(9_600)])
        for (name, block) in [("a.wav", "256"), ("b.wav", "256"), ("c.wav", "61")] {
            let run = try render([preset, "-i", take, "-o", files.path(name), "--tail", "1", "--block", block])
            XCTAssertEqual(run.status, 0, run.standardError)
        }
        let first = try files.read("a.wav").channels
        XCTAssertEqual(first.count, 2)
        XCTAssertEqual(first[0].count, 9_600 + 48_000)
        XCTAssertEqual(first, try files.read("b.wav").channels, "bit-identical rerun")
        XCTAssertLessThanOrEqual(RenderFixtures.maxDifference(first, try files.read("c.wav").channels), 1e-6, "block 61 = block 256")
        XCTAssertGreaterThan(first[1][(9_600 + 4_800)..<(9_600 + 9_600)].map(abs).max() ?? 0, 1e-3, "the plate rings after the input")
    }

    /// A NaN in the input trips the strip's NaN guard, which restarts its LV2 plugins: swh's comb (feedback)
    /// would otherwise keep the NaN circulating and the guard would silence the strip again every 10 ms. The
    /// NaN fed in at frame 1000 leaves the comb 480 frames later: that 256-frame block is silenced, the one
    /// before is the clean render's, every sample is finite, no block is silenced once the fresh comb has
    /// refilled (from frame 2048), and half a second on the output equals the clean render's (within 1e-5).
    func testNaNGuardRestartsTheStripsPlugins() throws {
        let preset = try files.preset("comb.toml", RenderFixtures.chain(units: """

              [[strip.unit]]
              type = "lv2"
              uri = "http://plugin.org.uk/swh-plugins/comb_n"
              controls = { delay_time = 0.01, decay_time = 0.05 }
            """))
        guard try FoldbackProcess.run(["check", preset]).status == 0 else { throw XCTSkip("swh-lv2's comb_n is not installed") }
        let clean = RenderFixtures.sine(48_000, frequency: 440, rate: 48_000)
        var poisoned = clean
        poisoned[1_000] = .nan
        let cleanTake = try files.write("clean.wav", [clean]), poisonedTake = try files.write("nan.wav", [poisoned])
        for (take, name) in [(cleanTake, "clean-out.wav"), (poisonedTake, "nan-out.wav")] {
            let run = try render([preset, "-i", take, "-o", files.path(name), "--tail", "0", "--block", "256"])
            XCTAssertEqual(run.status, 0, run.standardError)
        }
        let output = try files.read("nan-out.wav").channels[0], reference = try files.read("clean-out.wav").channels[0]
        XCTAssertEqual(Array(output[..<1_280]), Array(reference[..<1_280]), "untouched until the NaN leaves the comb")
        XCTAssertTrue(output[1_280..<1_536].allSatisfy { $0 == 0 }, "the block the NaN leaves the comb in is silenced")
        XCTAssertTrue(output.allSatisfy(\.isFinite), "no NaN reaches the output")
        let silencedLater = stride(from: 2_048, to: output.count - 256, by: 256).filter { start in output[start..<start + 256].allSatisfy { $0 == 0 } }
        XCTAssertEqual(silencedLater, [], "no block is silenced once the restarted comb has refilled")
        XCTAssertLessThanOrEqual(RenderFixtures.maxDifference([Array(output[24_000...])], [Array(reference[24_000...])]), 1e-5,
                                 "half a second later the output is the clean render's")
    }

    /// Ctrl-C mid-render: exit 1, "interrupted", and neither the output nor its temporary file is left.
    func testInterruptedRenderLeavesNoFile() throws {
        let take = try files.write("long.wav", [RenderFixtures.noise(48_000 * 120)])
        let preset = try files.preset("vocal.toml", RenderFixtures.chain(units: RenderFixtures.vocalUnits, busChannels: 2, limiter: true))
        let before = files.contents
        let process = Process()
        process.executableURL = try FoldbackProcess.executable()
        process.arguments = ["render", preset, "-i", take, "-o", files.path("out.wav"), "--block", "1"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while files.contents == before, process.isRunning, Date() < deadline { usleep(10_000) }
        XCTAssertTrue(process.isRunning, "still rendering when interrupted")
        XCTAssertTrue(files.contents.contains { $0.hasPrefix(".out.wav.partial") }, "the temporary file exists while rendering")
        XCTAssertTrue(process.stop(within: 20), "the render ended within 20 s of SIGINT")
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 1, message)
        XCTAssertTrue(message.contains("interrupted; no output was written"), message)
        XCTAssertEqual(files.contents, before, "no output and no temporary file left")
    }
}
