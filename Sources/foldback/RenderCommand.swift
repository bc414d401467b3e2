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
            Plays each input file into a strip and writes each named bus to a file, with the same engine, \
            units and parameter smoothing as 'foldback run', in cycles of --block frames. No JACK server \
            is needed. LV2 plugins run as live, except that their background work (LV2 worker) runs \
            synchronously in the cycle that asks for it, so renders are deterministic. Outputs are shifted by the chain's latency so they line up with the inputs.

            Inputs may be any format libsndfile reads (WAV, FLAC, AIFF, Ogg…). A mono file feeding a \
            stereo strip plays into both channels; a stereo file feeding a mono strip is mixed as \
            0.5·(L+R); more channels are an error. The render rate is --rate, else the first input's rate; \
            a file at another rate is resampled (libsamplerate, best quality) and the report says so. \
            A strip with a file source plays its file once, at its tempo and key (Rubber Band R3); other strips without an input get silence; buses without an output are not written.

            --tail auto (the default) keeps rendering after the inputs end until every bus has stayed \
            below −90 dBFS for 0.1 s, at most 30 s (the report says if the cap cut it); --tail 0 stops \
            with the longest input. Outputs are written under a temporary name and renamed when \
            complete, so a failed or interrupted render never leaves half a file: Ctrl-C (SIGINT) or \
            SIGTERM stops every job, deletes the temporary files and exits 1.

            BATCHES: put '{}' in the paths and list the names with --each NAME (repeatable) or \
            --each-from FILE (one name per line); each name is one input set, with '{}' replaced by \
            it. --jobs N renders up to N sets at once, each on its own thread.

            A progress bar with the speed in × realtime is drawn on a terminal; otherwise one summary \
            line per set. Bad input (missing or unreadable file, unknown strip or bus, wrong channel \
            count) exits 2 before anything is written; a failure while writing exits 1.

            EXAMPLES
              One strip, one bus:
                foldback render presets/vocal-monitor.toml -i take.wav -o mix.wav
              Named strips and buses, 24-bit FLAC, with a 5 s tail:
                foldback render show.toml --input vox=vox.wav --input backing=band.flac \\
                  --output main=main.flac --output iem_vox=iem.flac --format flac --tail 5
              Every take in a folder, four at a time:
                foldback render vocal.toml -i 'takes/{}.wav' -o 'mixed/{}.wav' \\
                  --each-from takes.txt --jobs 4
                foldback render vocal.toml -i 'takes/{}.wav' -o 'mixed/{}.wav' \\
                  --each verse --each chorus
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
