// Turns OSC requests into engine changes, queries, preset and setlist moves and meter subscriptions. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
public import FoldbackPresets
import Synchronization

/// The OSC address space of `docs/osc.md`: one request in, its replies out. Nothing changes on error.
///
/// Runs on the OSC server's thread; everything it touches is thread-safe (the engine's control side,
/// the target's preset switching, the setlist's position, the meter feed).
public final class ControlRouter: Sendable {
    /// Every address starts with this.
    public static let root = "/foldback"

    let target: any LiveControlTarget
    private let setlist: SetlistController?
    private let meters: MeterFeed?
    private let midi: MIDIController?
    private let files: FilePathPolicy
    private let log: @Sendable (String) -> Void
    /// The show tempo taps set when the target keeps none of its own (``LiveControlTarget/liveTempo``).
    let ownTempo = ShowTempo()

    /// A router for `target`, with its setlist (if running one), a meter feed (if subscriptions are offered)
    /// and the MIDI controller (for MIDI learn). Files named in requests must pass `files` (the running
    /// preset's folder, the setlist's folder and the policy's own folders). `log` hears every preset switch,
    /// setlist move, save and MIDI learn (and why one was refused), for the engineer's console; each line
    /// starts with the surface that sent the request (`OSC /foldback/preset/load: …`, `web …`, `keys …`).
    public init(
        target: any LiveControlTarget, setlist: SetlistController? = nil, meters: MeterFeed? = nil,
        midi: MIDIController? = nil, files: FilePathPolicy = FilePathPolicy(), log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.target = target
        self.setlist = setlist
        self.meters = meters
        self.midi = midi
        self.files = setlist.map { files.including(folderOf: $0.setlist.path) } ?? files
        self.log = log
    }

    /// The analyser's OSC subscriptions, when meter subscriptions are offered.
    var spectrumFeed: SpectrumFeed? { meters?.spectrum }

    /// The real path of a file named in a request, if ``FilePathPolicy`` allows it, else the refusal.
    func allowedFile(_ path: String) throws(ControlError) -> String {
        try files.resolve(path, presetPath: target.currentPreset.path)
    }

    /// The file a save request names (checked by ``allowedFile(_:)``), or `defaultPath` without one.
    func saveTarget(_ message: OSCMessage, defaultPath: String) throws(ControlError) -> String {
        guard message.arguments.count <= 1, message.arguments.allSatisfy({ $0.text != nil }) else {
            throw .malformed("\(message.path) takes an optional string, the file to write; got '\(message.typeTags)'")
        }
        guard let path = message.arguments.first?.text else { return defaultPath }
        return try allowedFile(path)
    }

    /// The replies to `message` from `sender` on `surface`: a query's answer, an acknowledgement, or one error reply.
    public func handle(_ message: OSCMessage, from sender: OSCPeer, surface: ControlSurface = .osc) -> [OSCMessage] {
        do {
            return try route(message, from: sender, surface: surface)
        } catch {
            return [OSCServer.errorReply(path: message.path, error)]
        }
    }

    /// Logs `line` as said by `surface`.
    func note(_ line: String, from surface: ControlSurface) {
        log("\(surface) \(line)")
    }

    private func route(_ message: OSCMessage, from sender: OSCPeer, surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        guard message.path.hasPrefix(Self.root + "/") else {
            throw .unknownAddress("Foldback's addresses start with \(Self.root)/ (see docs/osc.md)")
        }
        var parts = message.path.dropFirst(Self.root.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains(where: \.isEmpty) else { throw .malformed("empty part in the address") }
        switch parts.first {
        case .some where Self.isIncrement(parts):
            return try increment(message, parts: Array(parts.dropLast()))
        case "ping":
            try expect(message, "")
            return [OSCMessage(Self.root + "/pong")]
        case "preset", "setlist":
            do {
                let command = parts.dropFirst().joined(separator: "/")
                return try parts.first == "preset"
                    ? preset(message, command: command, surface: surface) : setlistCommand(message, command: command, surface: surface)
            } catch {
                note("\(message.path) refused: \(error)", from: surface)
                throw error
            }
        case "record", "player":
            guard parts.count == 2, parts[1] == "start" || parts[1] == "stop" else {
                throw .unknownAddress("\(parts[0]) commands: start, stop")
            }
            try expect(message, "")
            let report = try target.setTransport(recorder: parts[0] == "record", on: parts[1] == "start")
            note("\(message.path): \(report)", from: surface)
            return [OSCMessage(Self.root + "/" + parts[0], [.string(report)])]
        case "soundcheck" where !Self.isParameter(parts):
            var command = try SoundcheckCommand.parse(parts.dropFirst(), message)
            if case let .source(strip, onTake) = command {   // `all s` and `strip/<name> s` spell the tree's input switches
                let node: [Substring] = strip.map { ["strip", Substring($0), Substring(ParameterTree.Key.input)] } ?? ["soundcheck", Substring(ParameterTree.Key.input)]
                guard let graph = target.engine.graph else { throw .failed("no graph is running yet") }
                try apply(try ParameterPath.resolve(node, graph: graph, preset: target.currentPreset), value: onTake ? 1 : 0)
                command = .status
            }
            let report = try target.soundcheck(command)
            if parts.count > 1, parts[1] != "get" { note("\(message.path): \(report)", from: surface) }
            return [OSCMessage(Self.root + "/soundcheck", [.string(report)])]
        case "meters":
            return try meterCommand(message, command: parts.dropFirst().joined(separator: "/"), sender: sender)
        case "analyser":
            return try analyserCommand(message, command: parts.dropFirst().joined(separator: "/"), sender: sender, surface: surface)
        case "midi":
            do {
                return try midiCommand(message, command: parts.dropFirst().joined(separator: "/"), midi: midi, surface: surface)
            } catch {
                note("\(message.path) refused: \(error)", from: surface)
                throw error
            }
        case "strip" where Self.isUnitSave(parts), "bus" where Self.isUnitSave(parts):
            do {
                return try unitSave(message, kind: parts[0], owner: String(parts[1]), unit: String(parts[3]), surface: surface)
            } catch {
                note("\(message.path) refused: \(error)", from: surface)
                throw error
            }
        case "strip" where Self.isNotchClear(parts), "bus" where Self.isNotchClear(parts):
            do {
                return try notchClear(message, parts: parts, surface: surface)
            } catch {
                note("\(message.path) refused: \(error)", from: surface)
                throw error
            }
        case "strip" where Self.isSourceTransport(parts):
            return try sourceTransport(message, parts: parts, surface: surface)
        case "talkback":
            return try talkbackCommand(message, parts: parts)
        case "tempo" where parts.count == 2 && parts[1] == "tap":
            return try tempoCommand(message, parts: parts, surface: surface)
        case "parameters":
            return try parametersCommand(message, parts: parts)
        case "cue":
            return try cueCommand(message, parts: parts)
        case "bus" where parts.count == 4 && parts[2] == "latency" && parts[3] == "get":
            try expect(message, "")
            return [try latencyReply(bus: String(parts[1]))]
        case "strip", "bus", "dca", "mute_group", "soundcheck", "tempo":
            let isQuery = parts.last == "get"
            if isQuery { parts.removeLast() }
            guard let graph = target.engine.graph else { throw .failed("no graph is running yet") }
            let parameter = try ParameterPath.resolve(parts, graph: graph, preset: target.currentPreset)
            let valuePath = Self.root + "/" + parts.joined(separator: "/")
            if isQuery {
                try expect(message, "")
                let value = target.engine.value(at: parameter.address) ?? parameter.presetValue
                return [OSCMessage(valuePath, [parameter.isSwitch ? .int(value == 0 ? 0 : 1) : .float(value)])]
            }
            try set(parameter, from: message)
            return []
        default:
            throw .unknownAddress("unknown address; see docs/osc.md for Foldback's address space")
        }
    }

    /// Whether `parts` address a sound-check parameter of the tree (`soundcheck/input[/get]`) rather than a command.
    private static func isParameter(_ parts: [Substring]) -> Bool {
        (2...3).contains(parts.count) && parts[1] == ParameterTree.Key.input && (parts.count == 2 || parts[2] == "get")
    }

    /// `/foldback/bus/<bus>/latency f added_ms f round_trip_ms i added_frames i round_trip_frames` (−1 while unknown).
    private func latencyReply(bus: String) throws(ControlError) -> OSCMessage {
        guard let figures = target.busLatency(named: bus) else {
            let buses = target.currentPreset.buses.map(\.name).joined(separator: ", ")
            throw .unknownAddress("no bus named '\(bus)'; buses: \(buses)")
        }
        return OSCMessage("\(Self.root)/bus/\(bus)/latency", [
            .float(Float(figures.addedMs)), .float(Float(figures.roundTripMs ?? -1)),
            .int(Int32(clamping: figures.addedFrames)), .int(Int32(clamping: figures.roundTripFrames ?? -1)),
        ])
    }

    private func set(_ parameter: ResolvedParameter, from message: OSCMessage) throws(ControlError) {
        var parameter = parameter
        if let trimmed = try Self.trimMove(parameter, message) { parameter = trimmed }
        let choice = parameter.node.descriptor.choices.first { $0.name == message.arguments.first?.text }   // `s high_shelf` names a choice
        guard message.arguments.count == 1 || (parameter.isTrim && message.arguments.count == 2), let value = message.arguments[0].number ?? choice?.value else {
            throw .malformed("\(parameter.name) takes one number (\(parameter.isSwitch ? "i 0 or 1" : "f")); got '\(message.typeTags)'")
        }
        guard parameter.node.accepts(value) else {
            throw .outOfRange(parameter: parameter.name, value: value, range: parameter.range)
        }
        try apply(parameter, value: value)
    }

    /// Sets a resolved tree parameter in the running engine, its refusals worded for the surface.
    func apply(_ parameter: ResolvedParameter, value: Float) throws(ControlError) {
        do {
            try target.engine.set(parameter.address, to: value)
        } catch {
            if case let .valueOutOfRange(_, _, range) = error { throw .outOfRange(parameter: parameter.name, value: value, range: range) }
            if case let .hostParameterRefused(reason) = error { throw .failed("\(parameter.node.path): \(reason)") }
            throw .failed("\(parameter.name): \(error)")
        }
    }

    private func preset(_ message: OSCMessage, command: String, surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        switch command {
        case "load":
            guard message.arguments.count == 1, let text = message.arguments[0].text else {
                throw .malformed("/foldback/preset/load takes one string, the preset file; got '\(message.typeTags)'")
            }
            let path = try allowedFile(text)
            let report = try target.switchPreset(toPath: path)
            note("\(message.path): \(report)", from: surface)
            return [OSCMessage(Self.root + "/preset/loaded", [.string(path), .string(report)])]
        case "reload":
            try expect(message, "")
            let path = target.currentPreset.path
            let report = try target.switchPreset(toPath: path)
            note("\(message.path): \(report)", from: surface)
            return [OSCMessage(Self.root + "/preset/loaded", [.string(path), .string(report)])]
        case "save":
            let path = try saveTarget(message, defaultPath: target.currentPreset.path)
            let report = try target.saveChain(toPath: path)
            note("\(message.path): \(report)", from: surface)
            return [OSCMessage(Self.root + "/preset/saved", [.string(path), .string(report)])]
        case "get":
            try expect(message, "")
            let preset = target.currentPreset
            return [OSCMessage(Self.root + "/preset", [.string(preset.name ?? ""), .string(preset.path)])]
        case "recall/get":
            try expect(message, "")
            return [recallReply()]
        default:
            throw .unknownAddress("preset commands: load s, reload, save [s], get, recall/get")
        }
    }

    private func setlistCommand(_ message: OSCMessage, command: String, surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        guard let setlist else { throw .setlist("no setlist is running (start with --setlist FILE)") }
        switch command {
        case "next":
            try expect(message, "")
            note("\(message.path): \(try setlist.next()) (\(setlist.positionText))", from: surface)
        case "prev":
            try expect(message, "")
            note("\(message.path): \(try setlist.previous()) (\(setlist.positionText))", from: surface)
        case "select":
            guard message.arguments.count == 1, let number = message.arguments[0].number, number == number.rounded() else {
                throw .malformed("/foldback/setlist/select takes one integer, the song number from 1; got '\(message.typeTags)'")
            }
            note("\(message.path): \(try setlist.select(index: Int(number) - 1)) (\(setlist.positionText))", from: surface)
        case "get":
            try expect(message, "")
        default:
            throw .unknownAddress("setlist commands: next, prev, select i, get")
        }
        return [position(setlist)]
    }

    private func position(_ setlist: SetlistController) -> OSCMessage {
        OSCMessage(Self.root + "/setlist", [
            .int(Int32(setlist.index + 1)), .int(Int32(setlist.setlist.entries.count)), .string(setlist.current.name),
        ])
    }

    private func meterCommand(_ message: OSCMessage, command: String, sender: OSCPeer) throws(ControlError) -> [OSCMessage] {
        guard let meters else { throw .failed("meter subscriptions are not available") }
        switch command {
        case "subscribe":
            guard message.arguments.count <= 1, let rate = message.arguments.first.map(\.number) ?? MeterFeed.defaultRate else {
                throw .malformed("/foldback/meters/subscribe takes an optional rate in Hz (f or i); got '\(message.typeTags)'")
            }
            try meters.subscribe(sender, rate: rate)
            return [OSCMessage(Self.root + "/meters/subscribed", [.float(rate)])]
        case "unsubscribe":
            try expect(message, "")
            meters.unsubscribe(sender)
            return [OSCMessage(Self.root + "/meters/unsubscribed")]
        default:
            throw .unknownAddress("meter commands: subscribe [rate], unsubscribe")
        }
    }

    func expectNoArguments(_ message: OSCMessage) throws(ControlError) { try expect(message, "") }

    private func expect(_ message: OSCMessage, _ tags: String) throws(ControlError) {
        guard message.typeTags == tags else {
            throw .malformed("\(message.path) takes \(tags.isEmpty ? "no arguments" : "'\(tags)'"); got '\(message.typeTags)'")
        }
    }
}
