// foldback-probe: plays test signals into JACK ports and records ports into a WAV file. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CFoldback
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackRender
import Foundation

@main
struct FoldbackProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foldback-probe",
        abstract: "Play test signals into JACK ports and record JACK ports into a WAV file.",
        discussion: """
            Two JACK clients: NAME-player plays one signal per --play into the named
            input ports, and NAME-recorder records the named output ports into one
            multichannel WAV. Signals are computed from JACK's frame clock, so every
            run plays exactly the same samples.

            Signals:
              sine:FREQ[:DB]  a sine at FREQ Hz, peak DB dBFS (default -12)
              noise[:DB]      white noise, peak DB dBFS (default -18);
                              each --play gets its own sequence
              voice[:DB]      a sung "ah" phrase with vibrato (default -12)
              chord[:DB]      a soft triad progression, C Am F G (default -18)
              silence

            Examples:
              foldback-probe --play foldback:vox_in=voice \\
                  --play foldback:backing_in_L=chord \\
                  --play foldback:backing_in_R=chord \\
                  --record foldback:main_L --record foldback:main_R \\
                  --seconds 8 --output demo.wav
              foldback-probe --server test --play system:playback_1=sine:1000:-20
              foldback-probe --play foldback:vox_in=voice --midi foldback:midi_in --seconds 5
              foldback-probe --play foldback:vox_in=voice --midi foldback:midi_in --midi-clock 96
              foldback-probe --feedback-stage --output feedback-demo.wav
              foldback-probe --feedback-stage --loop-ms 25 --output feedback-demo-25ms.wav
              foldback-probe --feedback-grid    (the whole stage grid as a Markdown table)
            """)

    @Option(help: "JACK server name (default: $JACK_DEFAULT_SERVER, else the default server).")
    var server: String?

    @Option(name: .customLong("play"), help: ArgumentHelp("Play SIGNAL into input port PORT.", valueName: "PORT=SIGNAL"))
    var plays: [String] = []

    @Option(name: .customLong("record"), help: ArgumentHelp("Record output port PORT (repeat for more channels).", valueName: "PORT"))
    var records: [String] = []

    @Option(help: ArgumentHelp("Also send a MIDI CC sweep (CC 1-8, channel 1) and program changes into PORT.", valueName: "PORT"))
    var midi: String?

    @Option(help: ArgumentHelp("With --midi: also send MIDI clock at BPM (start, then 24 ticks a quarter at exact frames) into that port.", valueName: "BPM"))
    var midiClock: Double?

    @Option(help: "How long to play and record, in seconds.")
    var seconds: Double = 5

    @Option(help: ArgumentHelp("The WAV file to write (needed with --record).", valueName: "FILE.wav"))
    var output: String?

    @Option(help: "Sample format of the WAV file: float or pcm24.")
    var format: String = "float"

    @Flag(help: "No JACK: render the simulated feedback stage (a howl without the feedback unit, tamed with it) into --output.")
    var feedbackStage = false

    @Option(help: ArgumentHelp("With --feedback-stage: how far past the room's maximum stable gain the loop is pushed, dB.", valueName: "DB"))
    var overDB: Double = 6

    @Option(help: ArgumentHelp("With --feedback-stage: the wedge-to-mic loop, ms (default 11, the short stage).", valueName: "MS"))
    var loopMS: Double = 11

    @Flag(help: "No JACK: run the feedback stage grid (loop 3 … 40 ms × periods 64/256/1024 × 44.1/48/96 kHz × two rooms) and print its table.")
    var feedbackGrid = false

    @Option(help: ArgumentHelp("With --feedback-grid: only cells whose loop delay (ms) is one of these (comma-separated).", valueName: "MS,…"))
    var gridDelays: String?

    @Flag(help: "With --feedback-grid: only the representative cells the unit tests run (every delay at 48 kHz / 256, and the corners).")
    var gridQuick = false

    @Option(help: "Client name prefix: clients are NAME-player and NAME-recorder.")
    var name: String = "foldback-probe"

    func validate() throws {
        if feedbackGrid { return }
        if feedbackStage {
            guard output != nil else { throw ValidationError("--feedback-stage needs --output FILE.wav.") }
            guard (0...12).contains(overDB) else { throw ValidationError("--over-db must be 0 … 12 (got \(overDB)).") }
            guard (2...100).contains(loopMS) else { throw ValidationError("--loop-ms must be 2 … 100 (got \(loopMS)).") }
            return
        }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be above 0 and at most 3600 (got \(seconds)).") }
        guard !plays.isEmpty || !records.isEmpty else { throw ValidationError("Give at least one --play or --record.") }
        if midi != nil && plays.isEmpty { throw ValidationError("--midi sends while playing; give at least one --play.") }
        if let midiClock {
            guard midi != nil else { throw ValidationError("--midi-clock sends into the --midi port; give --midi PORT too.") }
            guard (20...300).contains(midiClock) else { throw ValidationError("--midi-clock must be 20 … 300 BPM (got \(midiClock)).") }
        }
        if !records.isEmpty && output == nil { throw ValidationError("--record needs --output FILE.wav.") }
        if output != nil && records.isEmpty { throw ValidationError("--output needs at least one --record PORT.") }
        guard AudioFileFormat(rawValue: format) != nil else { throw ValidationError("--format must be float or pcm24 (got '\(format)').") }
        _ = try parsedPlays()
    }

    /// The --play values as (port, signal text, signal), seeding each noise differently.
    func parsedPlays() throws -> [(port: String, text: String, signal: TestSignal)] {
        try plays.enumerated().map { index, play in
            guard let equals = play.firstIndex(of: "="), equals != play.startIndex else {
                throw ValidationError("--play '\(play)' must look like PORT=SIGNAL, e.g. foldback:vox_in=voice.")
            }
            let text = String(play[play.index(after: equals)...])
            do {
                return (String(play[..<equals]), text, try TestSignal(parsing: text, seed: UInt32(index)))
            } catch {
                throw ValidationError("--play '\(play)': \(error)")
            }
        }
    }

    func run() throws {
        do {
            if feedbackGrid { return try FeedbackGridReport.run(delays: gridDelays, quick: gridQuick) }
            if feedbackStage, let output {
                return try FeedbackStageDemo.render(to: output, overDB: overDB, loopMS: loopMS, format: AudioFileFormat(rawValue: format) ?? .float)
            }
            try probe()
        } catch let error as JACKError {
            throw failure("\(error)")
        } catch let error as AudioFileError {
            throw failure("\(error)")
        }
    }

    private func probe() throws {
        let playList = try parsedPlays()
        let player = try playList.isEmpty ? nil : JACKTestPlayer(
            name: "\(name)-player", serverName: server, signals: playList.map(\.signal))
        defer { player?.close() }
        let sweep = try midi.map { port throws(JACKError) in try MIDISweep(name: name, serverName: server, port: port) }
        defer { sweep?.stop() }
        let clock = try midiClock.map { bpm throws(JACKError) in try JACKTestMIDIClock(name: "\(name)-clock", serverName: server, bpm: bpm) }
        defer { clock?.close() }
        if let clock, let midi, let warning = clock.connect(to: midi) { throw JACKError.invalidArgument("\(warning)") }
        var warnings: [JACKConnectionWarning] = []
        for (channel, play) in playList.enumerated() {
            guard let player else { break }
            if let warning = player.connect(channel: channel, to: play.port) {
                warnings.append(warning)
            } else {
                print("Playing \(play.text) → \(play.port) (from \(player.ports[channel].name))")
            }
        }
        guard let output else {
            reportWarnings(warnings)
            return try waitWhilePlaying(player)
        }

        let recorder = try JACKTestRecorder(
            name: "\(name)-recorder", serverName: server, channels: records.count, seconds: seconds)
        defer { recorder.close() }
        for (channel, port) in records.enumerated() {
            if let warning = recorder.connect(from: port, toChannel: channel) {
                warnings.append(warning)
            } else {
                print("Recording \(port) → channel \(channel + 1) (into \(recorder.ports[channel].name))")
            }
        }
        reportWarnings(warnings)
        let sampleRate = recorder.client.sampleRate
        let frames = recorder.capacity
        print("Recording \(String(format: "%.2f", Double(frames) / sampleRate)) s at \(Int(sampleRate)) Hz…")
        // Like jack_rec: a missed cycle (an xrun on a loaded machine) does not restart the recording.
        let recording = try recorder.record(
            frames: frames, settleFrames: Int(sampleRate * 0.05), timeout: seconds * 2 + 10, requiresContinuity: false)
        let writer = try AudioFileWriter(
            url: URL(fileURLWithPath: output), sampleRate: Int(sampleRate), channelCount: records.count,
            format: AudioFileFormat(rawValue: format) ?? .float)
        try writer.write(planar: recording.channels)
        try writer.finish()
        let peaks = recording.channels.map { channel in
            let peak = channel.reduce(0) { max($0, abs($1)) }
            return peak > 0 ? String(format: "%.1f dBFS", 20 * log10(Double(peak))) : "silent"
        }
        print("Wrote \(output): \(frames) frames, \(records.count) channel(s); peaks \(peaks.joined(separator: ", ")).")
        if recorder.xrunCount > 0 || recorder.lastTakeGaps > 0 {
            print("Warning: the JACK server reported \(recorder.xrunCount) xrun(s) during the run; "
                  + "\(recorder.lastTakeGaps) missed cycle(s) were recorded through.")
        }
    }

    /// Plays for --seconds, ending early on Ctrl-C; fails if the server goes away.
    private func waitWhilePlaying(_ player: JACKTestPlayer?) throws(JACKError) {
        fb_install_stop_signals()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && fb_stop_signal() == 0 {
            if let shutdown = player?.shutdown { throw .serverShutDown(reason: shutdown.reason) }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    private func reportWarnings(_ warnings: [JACKConnectionWarning]) {
        for warning in warnings { FileHandle.standardError.write(Data("Warning: \(warning)\n".utf8)) }
    }

    private func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("foldback-probe: \(message)\n".utf8))
        return ExitCode.failure
    }

    /// Usage errors exit with status 2, as every Foldback tool does.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
