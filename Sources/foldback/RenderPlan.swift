// Turns `foldback render`'s --input/--output/--each arguments into one request per input set. Non-realtime.
import FoldbackLive
import Foundation
import FoldbackPresets
import FoldbackRender

/// The input sets of one `foldback render` run, with `{}` substituted per set.
struct RenderPlan {
    /// One input set: a name (nil without --each) and its files.
    struct InputSet {
        var name: String?
        var inputs: [(strip: String, url: URL)]
        var outputs: [(bus: String, url: URL)]
    }

    /// Every set, in the order given.
    let sets: [InputSet]

    /// Resolves `inputs`/`outputs` (`STRIP=FILE`, or a bare `FILE` when the preset has one strip/bus)
    /// and expands `{}` once per name in `names`.
    init(preset: Preset, inputs: [String], outputs: [String], names: [String]) throws(RenderError) {
        let strips = preset.strips.map(\.name)
        let buses = preset.buses.map(\.name)
        let inputPairs = try inputs.map { argument throws(RenderError) in
            try Self.pair(argument, names: strips, option: "--input", kind: "strip")
        }
        let outputPairs = try outputs.map { argument throws(RenderError) in
            try Self.pair(argument, names: buses, option: "--output", kind: "bus")
        }
        let patterned = (inputPairs + outputPairs).contains { $0.path.contains("{}") }
        if names.isEmpty {
            guard !patterned else {
                throw .nothingToRender("a path contains '{}' but no --each NAME or --each-from FILE says what to put there")
            }
            sets = [InputSet(name: nil, inputs: inputPairs.map { ($0.name, Self.url($0.path)) }, outputs: outputPairs.map { ($0.name, Self.url($0.path)) })]
            return
        }
        guard outputPairs.allSatisfy({ $0.path.contains("{}") }) else {
            throw .nothingToRender("with --each, every --output path needs '{}' (each set would overwrite the same file)")
        }
        sets = names.map { name in
            let fill = { (path: String) in Self.url(path.replacingOccurrences(of: "{}", with: name)) }
            return InputSet(name: name, inputs: inputPairs.map { ($0.name, fill($0.path)) }, outputs: outputPairs.map { ($0.name, fill($0.path)) })
        }
    }

    /// Names listed one per line in `path` (blank lines and `#` comments skipped).
    static func names(fromFile path: String) throws(RenderError) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .nothingToRender("cannot read the --each-from list \(path)")
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// `NAME=PATH`, or `PATH` alone when there is exactly one name to choose.
    private static func pair(_ argument: String, names: [String], option: String, kind: String) throws(RenderError) -> (name: String, path: String) {
        if let equals = argument.firstIndex(of: "=") {
            let name = String(argument[..<equals])
            let path = String(argument[argument.index(after: equals)...])
            if names.contains(name) { return (name, path) }
            // A path may contain '='; only treat the prefix as a name if no such file exists.
            if names.count != 1 || !FileManager.default.fileExists(atPath: argument) {
                throw kind == "strip" ? .unknownStrip(name, available: names) : .unknownBus(name, available: names)
            }
        }
        guard names.count == 1 else {
            throw .nothingToRender("\(option) '\(argument)': the preset has \(names.count) \(kind)s (\(names.joined(separator: ", "))); say which as \(kind.uppercased())=FILE")
        }
        return (names[0], argument)
    }

    private static func url(_ path: String) -> URL { URL(fileURLWithPath: path) }
}
