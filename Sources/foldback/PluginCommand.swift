// `foldback plugin URI`: one LV2 plugin's ports, presets, latency and features. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLive
import ArgumentParser
import FoldbackLV2
import FoldbackGraph

/// Shows everything a preset author needs about one LV2 plugin.
struct PluginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin",
        abstract: "Show an LV2 plugin's ports, presets, latency and required features.",
        discussion: """
            Prints the plugin's ports (index, direction, kind, symbol, range, default, unit and \
            name), its LV2 presets, whether it reports latency and which features it requires. \
            A control input's symbol is the key to set it in a preset (controls = { symbol = value }) \
            and its live parameter name; control outputs (gain reduction, levels) show in the status \
            line as meters. An unknown URI prints the closest installed ones and exits with status 2.

            EXAMPLES
              foldback plugins darc        (find the URI first)
              foldback plugin 'http://gareus.org/oss/lv2/fil4#stereo'
            """
    )

    @Argument(help: "The plugin's URI, as `foldback plugins` lists it.")
    var uri: String

    func run() throws {
        let info: LV2PluginInfo
        do {
            info = try LV2World.shared.plugin(uri: uri)
        } catch {
            StandardError.writeLine("error: \(error.description)")
            throw ExitCode(2)
        }
        print(PluginReport.text(for: info), terminator: "")
    }
}
