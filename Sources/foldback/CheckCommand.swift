// `foldback check`: validates a preset, prints the chain it resolves to, and can plot a strip's EQ. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLive
import ArgumentParser
import FoldbackEngine
import FoldbackPlot
import FoldbackPresets
import FoldbackGraph

/// Loads a preset without touching JACK, prints its resolved chain, and reports every problem.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a preset (or every song of a setlist) and print the chain it describes.",
        discussion: """
            Reads the preset, checks every key and prints what 'foldback run' would build: each strip's ports, \
            units and sends, each bus's ports, units and limiter, and the latency to each bus. JACK is not \
            contacted. Problems are printed as file:line:column: error: message, all at once, exit status 2. \
            --eq-svg STRIP FILE plots a strip's eq; --parameters lists every parameter a running show has.
            Given a setlist, it checks every song's preset (sources, plugins, curves) and prints each problem with
            its song, then a line per song. The whole story: docs/commands.md.

            EXAMPLES
              foldback check presets/vocal-monitor.toml
              foldback check tonight.toml          (a setlist: every song)
            """
    )

    @Argument(help: "The preset file (TOML) to validate, or a setlist (every song's preset is checked).")
    var preset: String

    @Option(help: "The JACK client name used to spell full port names in the report.")
    var clientName = "foldback"

    @Flag(name: .shortAndLong, help: "Print only problems; say nothing when the preset is valid.")
    var quiet = false

    @Option(name: .customLong("eq-svg"), parsing: .upToNextOption,
            help: ArgumentHelp("Plot the first eq or geq unit of strip STRIP to the SVG file FILE.", valueName: "STRIP FILE"))
    var eqSVG: [String] = []

    @Flag(help: "Print the parameter tree (path, range, default, unit, who may set it) instead of the chain.")
    var parameters = false

    func validate() throws {
        guard eqSVG.isEmpty || eqSVG.count == 2 else {
            throw ValidationError("--eq-svg takes two values, the strip and the SVG file: --eq-svg vox vox-eq.svg")
        }
    }

    func run() throws {
        if SetlistLoader.isSetlist(path: preset) { return try checkSetlist() }
        let loaded = try PresetLoading.load(preset)
        for warning in loaded.warnings { StandardError.writeLine(warning.description) }
        if eqSVG.count == 2 { try plotEQ(of: eqSVG[0], in: loaded, to: eqSVG[1]) }
        guard !quiet else { return }
        if parameters {
            print(ParameterTreeReport.render(ParameterTree(preset: loaded, graph: try graph(loaded, sampleRate: 48_000))), terminator: "")
            return
        }
        print(PresetReport.render(loaded, clientName: clientName), terminator: "")
        print(try latencyReport(loaded), terminator: "")
    }

    /// The latency block: the graph prepared at 48 kHz (LV2 plugins instantiated), as `foldback run` builds it.
    private func latencyReport(_ preset: Preset) throws -> String {
        let sampleRate = 48_000.0
        return "\n" + LatencyReport.render(try graph(preset, sampleRate: sampleRate).layout, preset: preset, sampleRate: sampleRate)
    }

    /// The graph `foldback run` would build (LV2 plugins instantiated); a failure is reported and exits 2.
    private func graph(_ preset: Preset, sampleRate: Double) throws -> EngineGraph {
        do {
            return try PresetGraphBuilder.graph(for: preset, sampleRate: sampleRate, maxFrames: 256)
        } catch {
            PresetProblems.report(error, path: preset.path)
            throw ExitCode(2)
        }
    }

    /// Checks every song of the setlist at ``preset``: each problem at file:line:column naming its song, a line per
    /// song, exit status 2 when any song (or the setlist) has an error.
    private func checkSetlist() throws {
        let setlist: Setlist
        do {
            setlist = try SetlistLoader.load(path: preset)
        } catch {
            PresetProblems.report(error, path: preset)
            throw ExitCode(2)
        }
        let check = SetlistCheck(setlist, isThorough: true)
        for line in check.lines where !quiet || line.contains(": error: ") {
            if line.contains(": error: ") || line.contains(": warning: ") { StandardError.writeLine(line) } else { print(line) }
        }
        if check.hasErrors { throw ExitCode(2) }
    }

    /// Writes the response of the strip's first eq or geq unit; an unknown strip or a strip without one exits 2.
    private func plotEQ(of stripName: String, in preset: Preset, to path: String) throws {
        do {
            try preset.equalizerPlot(ofStrip: stripName).write(to: path, announces: !quiet)
        } catch let error as EqualizerPlotError {
            StandardError.writeLine("foldback: --eq-svg: \(error)")
            throw ExitCode(2)
        }
    }
}
