// `foldback curves`: lists the factory EQ curves, or shows one's bands, response and SVG plot. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLive
import ArgumentParser
import FoldbackPlot
import FoldbackPresets

/// Lists the factory curves an `eq` unit can start from, or shows one in detail.
struct CurvesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curves",
        abstract: "List the factory EQ curves, or show one's bands and frequency response.",
        discussion: """
            With no name, lists every factory curve: its name, band count and what it is for. With a \
            name, prints the curve's bands and its magnitude response at the 1/3-octave centre \
            frequencies from 25 Hz to 20 kHz, computed from the digital filters at the sample rate \
            given (48 kHz unless --rate says otherwise). --svg also writes a plot of the response.

            Names ignore case, spaces and punctuation, and a curve's file name works too: \
            'Vocal Booster', 'vocal booster' and vocal-booster are the same curve. In a preset, an \
            eq unit starts from a curve with curve = "Vocal Booster" (see docs/presets.md).

            Curves are TOML files in presets/curves (found next to the foldback executable or in \
            the current directory); set FOLDBACK_CURVES_DIR or pass --curves-dir to use another \
            directory. An unknown name, or a curve file with errors, exits with status 2.

            EXAMPLES
              foldback curves "Vocal Booster"
              foldback curves telephone --svg telephone.svg
            """
    )

    @Argument(help: "A curve to show (omit to list them all).")
    var name: String?

    @Option(help: ArgumentHelp("Write an SVG plot of the curve's response to this file.", valueName: "file"))
    var svg: String?

    @Option(help: "Sample rate the response is computed at, Hz.")
    var rate: Double = 48000

    @Option(help: ArgumentHelp("Read curves from this directory instead of the default.", valueName: "dir"))
    var curvesDir: String?

    func validate() throws {
        if svg != nil && name == nil { throw ValidationError("--svg plots one curve; give its name, e.g. foldback curves Air --svg air.svg") }
        guard rate >= 8000 && rate <= 384_000 else { throw ValidationError("--rate must be between 8000 and 384000 Hz") }
    }

    func run() throws {
        let library: CurveLibrary
        do {
            library = try loadLibrary()
        } catch {
            for diagnostic in error.diagnostics { StandardError.writeLine(diagnostic.description) }
            throw ExitCode(2)
        }
        for problem in library.problems { StandardError.writeLine(problem.description) }
        guard let name else {
            print(CurveReport.listing(library), terminator: "")
            if !library.problems.isEmpty { throw ExitCode(2) }
            return
        }
        guard let curve = library.curve(named: name) else {
            StandardError.writeLine("foldback: " + library.unknownCurveMessage(name) + " ('foldback curves' lists them all)")
            throw ExitCode(2)
        }
        print(CurveReport.details(curve, sampleRate: rate), terminator: "")
        if let svg {
            let plot = ResponsePlot(title: curve.name, subtitle: "\(curve.summary) (\(CurveReport.kilohertz(rate)) kHz)",
                                    bands: curve.bands.map(\.band), sampleRate: rate)
            try plot.write(to: svg)
        }
    }

    /// The curves from --curves-dir, else from the default directory.
    private func loadLibrary() throws(PresetError) -> CurveLibrary {
        if let curvesDir { return try CurveLibrary.load(directory: curvesDir) }
        return try CurveLibrary.loadDefault()
    }
}
