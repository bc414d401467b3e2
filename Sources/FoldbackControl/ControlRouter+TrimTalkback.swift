// OSC for the engineer's tools: trim moves with their compensate flag, talkback presses (momentary and latching). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

extension ResolvedParameter {
    /// Whether this is a strip's `trim_db` (it takes an optional compensate flag).
    var isTrim: Bool {
        switch address {
        case .stripTrim, .stripTrimCompensated: true
        default: false
        }
    }
}

extension ControlRouter {
    /// `strip/<s>/trim_db f DB [i COMPENSATE]`: the flag (0 or 1) overrides the strip's `trim_compensate`
    /// for this move; nil when `parameter` is no trim or the flag is absent.
    static func trimMove(_ parameter: ResolvedParameter, _ message: OSCMessage) throws(ControlError) -> ResolvedParameter? {
        guard parameter.isTrim, message.arguments.count == 2 else { return nil }
        guard case let .int(flag) = message.arguments[1], flag == 0 || flag == 1, message.arguments[0].number != nil else {
            throw .malformed("\(parameter.name) takes 'f DB' and an optional 'i 0|1' (compensate); got '\(message.typeTags)'")
        }
        guard case let .stripTrim(strip) = parameter.address.uncompensated else { return nil }
        var move = parameter
        move.address = flag == 1 ? .stripTrimCompensated(strip: strip) : .stripTrim(strip: strip)
        return move
    }

    /// `/foldback/talkback/<strip> i 1|0` presses or releases (momentary: send 1 on press, 0 on release);
    /// `/foldback/talkback/<strip>/toggle` latches (each message flips it); `/foldback/talkback/<strip>/get` answers `i`.
    func talkbackCommand(_ message: OSCMessage, parts: [Substring]) throws(ControlError) -> [OSCMessage] {
        guard (2...3).contains(parts.count) else { throw .unknownAddress("talkback addresses: talkback/<strip> i, talkback/<strip>/toggle, talkback/<strip>/get") }
        guard let graph = target.engine.graph else { throw .failed("no graph is running yet") }
        let parameter = try ParameterPath.resolve(["strip", parts[1], "talkback"], graph: graph, preset: target.currentPreset)
        let current = target.engine.value(at: parameter.address) ?? 0
        let reply = OSCMessage(Self.root + "/talkback/" + parts[1], [.int(current == 0 ? 0 : 1)])
        switch parts.count == 3 ? parts[2] : "" {
        case "get":
            try expectNoArguments(message)
            return [reply]
        case "toggle":
            try expectNoArguments(message)
            let value: Float = current == 0 ? 1 : 0
            try press(parameter, value)
            return [OSCMessage(Self.root + "/talkback/" + parts[1], [.int(Int32(value))])]
        case "":
            guard message.arguments.count == 1, let value = message.arguments[0].number, value == 0 || value == 1 else {
                throw .malformed("\(message.path) takes 'i 1' (press) or 'i 0' (release); got '\(message.typeTags)'")
            }
            try press(parameter, value)
            return []
        default:
            throw .unknownAddress("talkback addresses: talkback/<strip> i, talkback/<strip>/toggle, talkback/<strip>/get")
        }
    }

    private func press(_ parameter: ResolvedParameter, _ value: Float) throws(ControlError) {
        do {
            try target.engine.set(parameter.address, to: value)
        } catch {
            throw .failed("\(parameter.name): \(error)")
        }
    }
}

extension ParameterAddress {
    /// A compensated trim move's plain ``stripTrim(strip:)`` (itself otherwise).
    var uncompensated: ParameterAddress {
        if case let .stripTrimCompensated(strip) = self { return .stripTrim(strip: strip) }
        return self
    }
}
