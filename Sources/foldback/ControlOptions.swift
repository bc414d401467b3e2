// `foldback run` options for live control: OSC, the web surface, the folders it may use, setlists, reloading, the meter view. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import FoldbackLive

/// The live-control options of `foldback run` (an option group, so `RunCommand` stays small).
struct ControlOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Listen for OSC on this UDP port (0: any free one); docs/osc.md.", valueName: "port"))
    var oscPort: UInt16?

    @Option(name: .long, help: ArgumentHelp("The address OSC listens on (0.0.0.0 for every interface).", valueName: "address", visibility: .hidden))
    var oscBind = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("Serve the musicians' and engineer's web pages on this port; docs/web.md.", valueName: "port"))
    var webPort: UInt16?

    @Option(name: .long, help: ArgumentHelp("The web pages' address (0.0.0.0: every interface).", valueName: "address"))
    var webBind = "127.0.0.1"

    @Option(name: .customLong("x32-port"), help: ArgumentHelp("X32 apps; no authentication (docs/x32.md)", valueName: "port"))
    var x32Port: UInt16?

    @Option(name: .customLong("xair-port"), help: ArgumentHelp("Answer X-Air (XR18) apps on this UDP port (usually 10024); docs/x32.md.", valueName: "port", visibility: .hidden))
    var xairPort: UInt16?

    @Option(name: .customLong("x32-bind"), help: ArgumentHelp("The address the X32 and X-Air ports listen on (0.0.0.0: anyone on that network can mix).", valueName: "address", visibility: .hidden))
    var x32Bind = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("Let OSC preset loads and saves use .toml files in this folder too (repeatable; the preset's and the setlist's folders are always allowed).", valueName: "dir", visibility: .hidden))
    var allowDir: [String] = []

    @Option(name: .long, help: ArgumentHelp("Run a setlist (one preset per song; docs/setlists.md) instead of one preset.", valueName: "file"))
    var setlist: String?

    @Flag(name: .customLong("allow-broken-songs"), help: ArgumentHelp("With --setlist: start even if some songs have errors; they are skipped, each logged.", visibility: .hidden))
    var allowBrokenSongs = false

    @Flag(name: .long, help: "Reload the preset whenever its file changes.")
    var watch = false

    @Flag(name: .long, help: "Print each musician's web link as a QR code too.")
    var qr = false

    @Flag(name: .customLong("fresh-tokens"), help: "New web links (tokens) for every page; a show keeps its links otherwise.")
    var freshTokens = false

    @Flag(name: .long, help: "Show the full meter view (every strip and bus, gain reduction, load) instead of the status line.")
    var meters = false

    func validate() throws {
        if let problem = settings.problem { throw ValidationError(problem) }
    }

    /// The options as the live session takes them.
    var settings: LiveControlSettings {
        var settings = LiveControlSettings()
        (settings.oscPort, settings.oscBind, settings.webPort, settings.webBind) = (oscPort, oscBind, webPort, webBind)
        (settings.allowDir, settings.watch, settings.meters) = (allowDir, watch, meters)
        (settings.x32Port, settings.xairPort, settings.x32Bind) = (x32Port, xairPort, x32Bind)
        (settings.showsQR, settings.freshTokens) = (qr, freshTokens)
        return settings
    }
}
