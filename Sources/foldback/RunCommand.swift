// `foldback run`: hosts a preset as a live JACK client. Non-realtime (placeholder until the JACK host lands).
import ArgumentParser

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a preset as a live JACK client.")
    @Argument(help: "The preset file (TOML).") var preset: String
    func run() throws {}
}
