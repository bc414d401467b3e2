// `foldback plugins`: lists the installed LV2 plugins, optionally filtered. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLive
import ArgumentParser
import FoldbackLV2
import FoldbackGraph

/// Lists installed LV2 plugins: URI, name, class and audio ports.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the installed LV2 plugins a preset can use.",
        discussion: """
            Prints one line per installed LV2 plugin: its URI (what a preset writes as \
            uri = "…" in a type = "lv2" unit), its audio inputs and outputs, its class and its name. \
            TEXT keeps only plugins whose URI, name or class contains it (case-insensitive). \
            Plugins are found on LV2_PATH, or in the system's LV2 directories when it is unset.

            A plugin with one audio input and output runs as two instances on a stereo strip; a \
            stereo plugin on a mono strip makes the strip stereo (see docs/presets.md).

            EXAMPLES
              foldback plugins reverb
              LV2_PATH=~/my-lv2 foldback plugins
            """
    )

    @Argument(help: "Show only plugins whose URI, name or class contains this text.")
    var text: String?

    func run() throws {
        let plugins = LV2World.shared.plugins(matching: text)
        guard !plugins.isEmpty else {
            StandardError.writeLine(text.map { "no installed LV2 plugin matches '\($0)'" } ?? "no LV2 plugins are installed")
            return
        }
        print(PluginReport.listing(plugins), terminator: "")
    }
}
