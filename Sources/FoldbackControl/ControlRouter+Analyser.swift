// OSC for the engineer's spectrum analyser: select its source, subscribe to its frames. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackAnalysis
import FoldbackEngine

extension ControlRouter {
    /// `/foldback/analyser/select s` (`bus/<bus>`, `strip/<strip>/pre`, `strip/<strip>/post` or `off`),
    /// `/foldback/analyser/get`, `/foldback/analyser/subscribe` and `/foldback/analyser/unsubscribe` (see docs/osc.md).
    /// A source the running preset lacks is refused, logged, and changes nothing.
    func analyserCommand(_ message: OSCMessage, command: String, sender: OSCPeer, surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        guard let analyser = target.analyser else { throw .failed("this instance has no analyser") }
        switch command {
        case "select":
            do throws(ControlError) {
                guard let graph = target.engine.graph else { throw .failed("no graph is running yet") }
                let point = try Self.analyserPoint(message, graph: graph)
                do { try analyser.select(point, in: graph) } catch { throw .unknownAddress("\(error)") }
                note("\(message.path): \(point?.description ?? "off")", from: surface)
                return [OSCMessage(Self.root + "/analyser", [.string(point?.description ?? "off")])]
            } catch {
                note("\(message.path) refused: \(error)", from: surface)
                throw error
            }
        case "get":
            try expectNoArguments(message)
            return [OSCMessage(Self.root + "/analyser", [.string(analyser.selected?.description ?? "off")])]
        case "subscribe", "unsubscribe":
            try expectNoArguments(message)
            guard let feed = spectrumFeed else { throw .failed("analyser subscriptions are not available") }
            if command == "subscribe" { feed.subscribe(sender) } else { feed.unsubscribe(sender) }
            return [OSCMessage(Self.root + "/analyser/" + command + "d")]
        default:
            throw .unknownAddress("analyser commands: select s, get, subscribe, unsubscribe")
        }
    }

    /// The point `message`'s one string names (nil for `off`), checked against the running graph.
    static func analyserPoint(_ message: OSCMessage, graph: EngineGraph) throws(ControlError) -> AnalyserPoint? {
        guard message.arguments.count == 1, let text = message.arguments[0].text else {
            throw .malformed("\(message.path) takes one string: bus/<bus>, strip/<strip>/pre, strip/<strip>/post or off; got '\(message.typeTags)'")
        }
        if text == "off" { return nil }
        let sources = AnalyserPoint.all(in: graph.description)
        guard let point = AnalyserPoint(text), sources.contains(point) else {
            let listed = sources.prefix(12).map(\.description).joined(separator: ", ")
            throw .unknownAddress("no analyser source '\(text.prefix(64))'; sources: \(listed)\(sources.count > 12 ? ", …" : ""), off")
        }
        return point
    }
}
