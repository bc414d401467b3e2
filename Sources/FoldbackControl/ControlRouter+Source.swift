// OSC for a file source's tempo and key: `/foldback/strip/<name>/source/<tempo|pitch_semitones|cents> f`, and `…/get`. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackPresets

extension ControlRouter {
    /// Whether `parts` address a strip's source (`strip/<name>/source/<key>[/get]`).
    static func isSourceAddress(_ parts: [Substring]) -> Bool { (4...5).contains(parts.count) && parts[0] == "strip" && parts[2] == "source" }

    /// Sets a source parameter (clamped into its range; out-of-range values are refused as for any parameter),
    /// or with `/get` answers its value.
    func sourceCommand(_ message: OSCMessage, parts: [Substring]) throws(ControlError) -> [OSCMessage] {
        let strip = String(parts[1])
        let keys = SourceParameters.all.map(\.key).joined(separator: ", ")
        guard let parameter = SourceParameters.named(String(parts[3])), parts.count == 4 || parts[4] == "get" else {
            throw .unknownAddress("source parameters: \(keys) (strip/<name>/source/<key> f, or …/get)")
        }
        let name = "strip/\(strip)/source/\(parameter.key)"
        if parts.count == 5 {
            try expectNoArguments(message)
            guard let state = target.fileSources().first(where: { $0.strip == strip }) else { throw .failed("strip '\(strip)' plays no file") }
            return [OSCMessage(Self.root + "/" + name, [.float(state.value(of: parameter))])]
        }
        guard message.arguments.count == 1, let value = message.arguments[0].number else {
            throw .malformed("\(name) takes one number (f); got '\(message.typeTags)'")
        }
        guard !value.isNaN, parameter.range.contains(value) else { throw .outOfRange(parameter: name, value: value, range: parameter.range) }
        try target.setSourceParameter(strip: strip, parameter, to: value)
        return []
    }
}
