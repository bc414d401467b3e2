// `foldback render`: renders audio files offline through a preset with the live engine, one or many input sets in parallel. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CFoldback
import FoldbackLive
import FoldbackEngine
import FoldbackPresets
import FoldbackGraph
import FoldbackRender
import Foundation

/// Renders files through a preset without a JACK server.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render audio files through a preset offline, with the live engine.",
        discussion: """
            Plays each input file into a strip and writes each named bus to a file, with the live engine and \
            no JACK server; outputs are aligned for latency and written whole or not at all. Batches: '{}' in \
            the paths with --each NAME or --each-from FILE, --jobs N at once. Bad input exits 2 before \
            anything is written. The whole story (formats, rates, tails, batches): docs/commands.md.

            EXAMPLES
              foldback render presets/vocal-monitor.toml -i take.wav -o mix.wav
              foldback render vocal.toml -i 'takes/{}.wav' -o 'mixed/{}.wav' --each-from takes.txt --jobs 4
            """
    )

    @Argument(help: "The preset file (TOML).")
    var preset: String

    @Option(name: [.short, .long], help: ArgumentHelp("A strip's input file; FILE alone if the preset has one strip.", valueName: "STRIP=FILE"))
    var input: [String] = []

    @Option(name: [.short, .long], help: ArgumentHelp("A bus's output file; FILE alone if the preset has one bus.", valueName: "BUS=FILE"))
    var output: [String] = []

    @Option(help: "Frames per engine cycle (1…16384; the output does not depend on it, larger is faster).")
    var block = 2048

    @Option(help: "Render sample rate, Hz (default: the first input's rate).")
    var rate: Int?

    @Option(help: ArgumentHelp("What follows the inputs: auto (until −90 dBFS, at most 30 s) or seconds.", valueName: "auto|SECONDS"))
    var tail = "auto"

    @Option(help: ArgumentHelp("Output format: wav24, wav32f or flac (24-bit) (default: flac for a .flac path, else wav32f).", valueName: "FORMAT"))
    var format: String?

    @Option(help: ArgumentHelp("A name to put in place of '{}' in every path; one input set per name.", valueName: "NAME"))
    var each: [String] = []

    @Option(help: ArgumentHelp("A file listing names for '{}', one per line.", valueName: "FILE"))
    var eachFrom: String?

    @Option(help: "Input sets rendered at once.")
    var jobs = 1

    func validate() throws {
        guard (1...EngineGraph.maxFramesLimit).contains(block) else { throw ValidationError("--block must be 1…\(EngineGraph.maxFramesLimit), got \(block)") }
        if let rate, !(8000...384_000).contains(rate) { throw ValidationError("--rate must be 8000…384000 Hz, got \(rate)") }
        guard RenderTail(argument: tail) != nil else { throw ValidationError("--tail must be 'auto' or seconds 0…3600, got '\(tail)'") }
        if let format, AudioFileFormat(optionName: format) == nil { throw ValidationError("--format must be wav24, wav32f or flac, got '\(format)'") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be 1…256, got \(jobs)") }
    }

    func run() throws {
        fb_install_stop_signals()   // before any output's temporary file exists, so Ctrl-C always removes it
        let preset = try PresetLoading.load(self.preset)
        let renderers: [OfflineRenderer]
        do {
            var names = each
            if let eachFrom { names += try RenderPlan.names(fromFile: eachFrom) }
            let plan = try RenderPlan(strips: preset.strips.map(\.name), buses: preset.buses.map(\.name), inputs: input, outputs: output, names: names)
            renderers = try PresetRendering.renderers(
                of: preset, plan: plan, rate: rate, block: block, format: format.flatMap(AudioFileFormat.init(optionName:)),
                tail: RenderTail(argument: tail) ?? .seconds(0))
        } catch {
            StandardError.writeLine("foldback: render: \(error)")
            throw ExitCode(error.isBadInput ? 2 : 1)
        }
        let results = RenderJobs.run(renderers, threads: jobs)
        var failed = false
        for (renderer, result) in zip(renderers, results) {
            switch result {
            case .success(let summary): print(RenderReport.lines(summary, renderer: renderer))
            case .failure(let error):
                StandardError.writeLine("foldback: render: \(error)")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
