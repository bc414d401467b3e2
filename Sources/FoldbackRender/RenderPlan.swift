// Turns a render's --input/--output/--each arguments into one request per input set. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
public import Foundation

/// The input sets of one multi-file render, with `{}` substituted per set.
public struct RenderPlan: Sendable {
    /// One input set: a name (nil without --each) and its files.
    public struct InputSet: Sendable {
        /// The name put in place of `{}`, nil for a single set.
        public var name: String?
        /// Strip name → the file it plays.
        public var inputs: [(strip: String, url: URL)]
        /// Bus name → the file it is written to.
        public var outputs: [(bus: String, url: URL)]

        /// The render rate: `rate` when given, else the first input's rate (Hz); no input is an error.
        public func sampleRate(_ rate: Int?) throws(RenderError) -> Int {
            guard let first = inputs.first else { throw .nothingToRender("no input given; name one with --input STRIP=FILE") }
            if let rate { return rate }
            do { return try AudioFileReader(url: first.url).sampleRate } catch { throw .unreadableInput(strip: first.strip, error: error) }
        }

        /// The request rendering this set.
        public func request(format: AudioFileFormat?, tail: RenderTail) -> RenderRequest {
            RenderRequest(inputs: inputs, outputs: outputs, format: format, tail: tail)
        }
    }

    /// Every set, in the order given.
    public let sets: [InputSet]

    /// Resolves `inputs`/`outputs` (`STRIP=FILE`, or a bare `FILE` when there is one strip/bus) against
    /// the preset's `strips` and `buses`, and expands `{}` once per name in `names`.
    public init(strips: [String], buses: [String], inputs: [String], outputs: [String], names: [String]) throws(RenderError) {
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

    /// One renderer per set, in order, each on the graph `graph` builds for the set's render rate (Hz:
    /// `rate`, else the set's first input's rate).
    /// The preset's file `sources` play in every set (a set without inputs renders at the first source's rate).
    public func renderers(
        rate: Int?, format: AudioFileFormat?, tail: RenderTail, sources: [RenderSource] = [], graph: (Int) throws(RenderError) -> EngineGraph
    ) throws(RenderError) -> [OfflineRenderer] {
        try sets.map { set throws(RenderError) in
            var request = set.request(format: format, tail: tail)
            request.sources = sources
            guard set.inputs.isEmpty, let first = sources.first else { return try OfflineRenderer(graph: graph(set.sampleRate(rate)), request: request) }
            if let rate { return try OfflineRenderer(graph: graph(rate), request: request) }
            let sourceRate: Int
            do throws(AudioFileError) { sourceRate = try AudioFileReader(url: first.url).sampleRate } catch {
                throw .unreadableInput(strip: first.strip, error: error)
            }
            return try OfflineRenderer(graph: graph(sourceRate), request: request)
        }
    }

    /// Names listed one per line in `path` (blank lines and `#` comments skipped).
    public static func names(fromFile path: String) throws(RenderError) -> [String] {
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
