// OSC transport of one strip's file source: `/foldback/strip/<strip>/source/play|stop|cue`, `…/source/locate f SECONDS`. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackPresets

/// What a file source's transport is told.
public enum SourceTransportCommand: Sendable, Equatable {
    /// Play on from where it stands (from the top once played to its end).
    case play
    /// Stop where it is (a later play carries on from there).
    case stop
    /// Back to the top, stopped, ready for the count-in.
    case cue
    /// To this many seconds into the file, playing or stopped as it was.
    case locate(seconds: Double)

    /// The OSC words, as the last part of the address.
    static let words = ["play", "stop", "cue", "locate"]
}

extension ControlRouter {
    /// Whether `parts` (after `/foldback/`) is `strip/<strip>/source/<play|stop|cue|locate>`.
    public static func isSourceTransport(_ parts: [Substring]) -> Bool {
        parts.count == 4 && parts[2] == Substring(ParameterTree.Key.source) && SourceTransportCommand.words.contains(String(parts[3]))
    }

    /// Carries out the command; replies `/foldback/strip/<strip>/source s playing|stopped f position_s f duration_s`.
    func sourceTransport(_ message: OSCMessage, parts: [Substring], surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        let strip = String(parts[1])
        let command: SourceTransportCommand
        if parts[3] == "locate" {
            guard message.arguments.count == 1, let seconds = message.arguments[0].number, seconds.isFinite, seconds >= 0 else {
                throw .malformed("\(message.path) takes one number, the position in seconds from the start of the file (f); got '\(message.typeTags)'")
            }
            command = .locate(seconds: Double(seconds))
        } else {
            try expectNoArguments(message)
            command = parts[3] == "play" ? .play : parts[3] == "stop" ? .stop : .cue
        }
        let state = try target.sourceTransport(command, strip: strip)
        note("\(message.path): \(strip) \(state.isPlaying ? "playing" : "stopped") at \(NumberFormatting.plain(Float((state.position * 10).rounded() / 10))) s", from: surface)
        return [OSCMessage("\(Self.root)/strip/\(strip)/source", [
            .string(state.isPlaying ? "playing" : "stopped"), .float(Float(state.position)), .float(Float(state.duration)),
        ])]
    }
}

