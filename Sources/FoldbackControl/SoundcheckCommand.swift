// The sound-check OSC commands (`/foldback/soundcheck/...`), parsed for the live show that plays a take. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// What `/foldback/soundcheck/<command>` asks of a show running `--soundcheck TAKE` (docs/osc.md).
public enum SoundcheckCommand: Sendable, Equatable {
    /// `play`, `stop`: the take's transport.
    case play
    case stop
    /// `locate f`: move to this many seconds into the take.
    case locate(seconds: Double)
    /// `loop ff`: loop this region (seconds); `loop` with no arguments ends the loop.
    case loop(ClosedRange<Double>?)
    /// `all s` / `strip/<name> s` with "live" or "take": where strips take their input (20 ms crossfade).
    case source(strip: String?, onTake: Bool)
    /// `get`: the status line (position, loop, strips on the take).
    case status

    /// Parses the address parts after `soundcheck` and the message's arguments.
    /// - Throws: ``ControlError`` for an unknown command or arguments it does not take.
    static func parse(_ parts: ArraySlice<Substring>, _ message: OSCMessage) throws(ControlError) -> SoundcheckCommand {
        let numbers = message.arguments.compactMap(\.number).map(Double.init)
        let tags = message.typeTags
        func bare(_ command: SoundcheckCommand) throws(ControlError) -> SoundcheckCommand {
            guard tags.isEmpty else { throw .malformed("\(message.path) takes no arguments") }
            return command
        }
        switch (parts.first, parts.count) {
        case ("play", 1): return try bare(.play)
        case ("stop", 1): return try bare(.stop)
        case ("get", 1): return try bare(.status)
        case ("locate", 1):
            guard numbers.count == 1, tags.count == 1, numbers[0] >= 0 else { throw .malformed("\(message.path) takes one time in seconds (≥ 0)") }
            return .locate(seconds: numbers[0])
        case ("loop", 1):
            if tags.isEmpty { return .loop(nil) }
            guard numbers.count == 2, tags.count == 2, numbers[0] >= 0, numbers[1] > numbers[0] else {
                throw .malformed("\(message.path) takes a start and an end in seconds (end > start ≥ 0), or nothing to end the loop")
            }
            return .loop(numbers[0]...numbers[1])
        case ("all", 1), ("strip", 2):
            guard tags == "s", let word = message.arguments.first?.text, word == "live" || word == "take" else {
                throw .malformed("\(message.path) takes 'live' or 'take'")
            }
            return .source(strip: parts.first == "strip" ? String(parts[parts.startIndex + 1]) : nil, onTake: word == "take")
        default:
            throw .unknownAddress("soundcheck commands: play, stop, locate, loop, all, strip/<name>, get")
        }
    }
}
