// The messages a page sends over the WebSocket, parsed and checked for shape, size and type. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import Foundation

/// One request from a page: set a parameter, or run a command.
///
/// Wire forms (JSON objects, nothing else, no other keys):
/// `{"path": "/foldback/strip/vox/send/iem/gain_db", "value": -3}`, `{"command": "setlist/next"}` and
/// `{"analyser": "bus/iem_vox"}` (`strip/<strip>/pre`, `strip/<strip>/post`, `off`) and `{"meters": 25}`.
public enum WebRequest: Sendable, Equatable {
    /// Sets the parameter at an OSC-style `path` (see docs/osc.md) to `value`.
    case set(path: String, value: Float)
    /// Runs a command (engineer only): one of ``commands``.
    case command(String)
    /// Selects the analyser's source (engineer only) and asks for its frames, or `off`.
    case analyser(String)
    /// Asks for meters this many times a second (0 … ``maximumMeterRate``; 0: none, a hidden tab), levels as
    /// binary frames (any role; nothing in the show changes).
    case meters(Double)

    /// The longest message accepted, in bytes of UTF-8.
    public static let maximumMessageBytes = 1024
    /// The longest parameter path accepted, in bytes.
    public static let maximumPathBytes = 256
    /// The most meter updates a second a page may ask for (the push thread's rate).
    public static let maximumMeterRate = 25.0
    /// The commands a page may send, each the OSC address after `/foldback/` (taking no arguments); a feedback
    /// unit's notch clear (`bus/wedge/unit/fbx/notch/3/clear`) and a file source's play, stop and cue
    /// (`strip/click/source/play`) are too.
    public static let commands: Set<String> = [
        "preset/reload", "preset/save", "setlist/next", "setlist/prev", "record/start", "record/stop", "cue/clear", "tempo/tap",
    ]

    /// The request in `text`.
    /// - Throws: ``WebRefusal/malformed(_:)`` for anything but one well-formed request within the limits.
    public static func parse(_ text: String) throws(WebRefusal) -> WebRequest {
        guard text.utf8.count <= maximumMessageBytes else {
            throw .malformed("message longer than \(maximumMessageBytes) bytes")
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(text.utf8))
        } catch let error as WebRefusal {
            throw error
        } catch {
            throw .malformed("not a JSON object of the form {\"path\": string, \"value\": number} or {\"command\": string}")
        }
        if let rate = wire.meters {
            guard wire.path == nil, wire.value == nil, wire.command == nil, wire.analyser == nil, rate.isFinite, (0...maximumMeterRate).contains(rate) else {
                throw .malformed("a meter request is {\"meters\": updates a second} alone, from 0 to \(Int(maximumMeterRate))")
            }
            return .meters(rate)
        }
        if let source = wire.analyser {
            guard wire.path == nil, wire.value == nil, wire.command == nil, source.utf8.count <= maximumPathBytes else {
                throw .malformed("an analyser request is {\"analyser\": source} alone, at most \(maximumPathBytes) bytes")
            }
            return .analyser(source)
        }
        switch (wire.path, wire.value, wire.command) {
        case let (path?, value?, nil):
            guard path.utf8.count <= maximumPathBytes, path.hasPrefix("/foldback/") else {
                throw .malformed("a path starts with /foldback/ and is at most \(maximumPathBytes) bytes")
            }
            guard value.isFinite, abs(value) <= Double(Float.greatestFiniteMagnitude) else { throw .malformed("value is not a finite number") }
            return .set(path: path, value: Float(value))
        case let (nil, nil, command?):
            let parts = command.split(separator: "/", omittingEmptySubsequences: false)
            guard commands.contains(command) || (command.utf8.count <= maximumPathBytes
                    && (ControlRouter.isNotchClear(parts) || (ControlRouter.isSourceTransport(parts) && parts.last != "locate"))) else {
                throw .malformed("unknown command; commands: \(commands.sorted().joined(separator: ", ")), strip|bus/OWNER/unit/ID/notch/N/clear, strip/STRIP/source/play|stop|cue")
            }
            return .command(command)
        default:
            throw .malformed("a message has either \"path\" and \"value\", or \"command\"")
        }
    }

    /// The decoded object: only these keys, each of its own type.
    private struct Wire: Decodable {
        var path: String?
        var value: Double?
        var command: String?
        var analyser: String?
        var meters: Double?

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys where !["path", "value", "command", "analyser", "meters"].contains(key.stringValue) {
                throw WebRefusal.malformed("unknown key '\(key.stringValue.prefix(32))'")
            }
            path = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "path"))
            value = try container.decodeIfPresent(Double.self, forKey: Key(stringValue: "value"))
            command = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "command"))
            analyser = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "analyser"))
            meters = try container.decodeIfPresent(Double.self, forKey: Key(stringValue: "meters"))
        }
    }
}

/// Why a web request changed nothing.
public enum WebRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a well-formed request (the connection is closed).
    case malformed(String)
    /// Well formed, but the token's role may not do it.
    case forbidden(String)
    /// The control path refused it (unknown parameter, value out of range, no setlist…).
    case refused(String)

    public var description: String {
        switch self {
        case let .malformed(reason): return "malformed: \(reason)"
        case let .forbidden(reason): return "forbidden: \(reason)"
        case let .refused(reason): return reason
        }
    }
}
