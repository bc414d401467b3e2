// `foldback run` options for live control: OSC, the web surface, the folders it may use, setlists, reloading, the meter view. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import FoldbackLive

/// The live-control options of `foldback run` (an option group, so `RunCommand` stays small).
struct ControlOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Listen for OSC on this UDP port (0 picks a free one and says which). Off by default; see docs/osc.md.", valueName: "port"))
    var oscPort: UInt16?

    @Option(name: .long, help: ArgumentHelp("The address OSC listens on (0.0.0.0 for every interface).", valueName: "address"))
    var oscBind = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("Serve the web control surface (phone pages per bus, an engineer page) on this TCP port (0 picks a free one). Off by default; see docs/web.md.", valueName: "port"))
    var webPort: UInt16?

    @Option(name: .long, help: ArgumentHelp("The address the web surface listens on (0.0.0.0 for every interface, e.g. a stage Wi-Fi).", valueName: "address"))
    var webBind = "127.0.0.1"

    @Option(name: .customLong("x32-port"), help: ArgumentHelp("Answer Behringer X32 OSC apps (Mixing Station, X32-Mix…) on this UDP port (usually 10023; 0 picks one). Off by default; no authentication; see docs/x32.md.", valueName: "port"))
    var x32Port: UInt16?

    @Option(name: .customLong("xair-port"), help: ArgumentHelp("Answer X-Air (XR18) OSC apps on this UDP port (usually 10024; 0 picks one). Off by default; see docs/x32.md.", valueName: "port"))
    var xairPort: UInt16?

    @Option(name: .customLong("x32-bind"), help: ArgumentHelp("The address the X32 and X-Air ports listen on (0.0.0.0 for every interface: anyone on that network can then mix).", valueName: "address"))
    var x32Bind = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("Let OSC preset loads and saves use .toml files in this folder too (repeatable; the preset's and the setlist's folders are always allowed).", valueName: "dir"))
    var allowDir: [String] = []

    @Option(name: .long, help: ArgumentHelp("Run a setlist (TOML, one preset per song; see docs/setlists.md) instead of one preset; starts at its first song.", valueName: "file"))
    var setlist: String?

    @Flag(name: .customLong("allow-broken-songs"), help: "With --setlist: start even if some songs' presets have errors; those songs are skipped, each with a log line.")
    var allowBrokenSongs = false

    @Flag(name: .long, help: "Reload the current preset whenever its file changes (SIGHUP always reloads it).")
    var watch = false

    @Flag(name: .long, help: "Show the live meter view (per strip and bus peak/RMS with peak hold, gain reduction, DSP load, xruns) instead of the status line.")
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
        return settings
    }
}
