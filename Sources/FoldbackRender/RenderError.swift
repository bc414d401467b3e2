// Why an offline render could not start or finish. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A render failure; ``isBadInput`` separates the user's mistakes (exit 2) from failures while rendering.
public enum RenderError: Error, Sendable, CustomStringConvertible {
    /// An `--input` names a strip the preset does not have.
    case unknownStrip(String, available: [String])
    /// An `--output` names a bus the preset does not have.
    case unknownBus(String, available: [String])
    /// The same strip or bus was given twice.
    case duplicate(kind: String, name: String)
    /// An input file is missing, unreadable or not audio.
    case unreadableInput(strip: String, error: AudioFileError)
    /// An input file's channels cannot feed its strip.
    case channelMismatch(strip: String, path: String, fileChannels: Int, stripChannels: Int)
    /// An output file could not be created.
    case unwritableOutput(bus: String, error: AudioFileError)
    /// Nothing to render: no input or no output.
    case nothingToRender(String)
    /// The engine refused the graph.
    case engine(String)
    /// Writing an output failed while rendering.
    case writeFailed(AudioFileError)
    /// Stopped on request (a stop signal) before the end; nothing was written.
    case cancelled

    /// True for mistakes in what the user asked (exit status 2).
    public var isBadInput: Bool {
        switch self {
        case .engine, .writeFailed, .cancelled: false
        default: true
        }
    }

    /// The message to print.
    public var description: String {
        switch self {
        case .unknownStrip(let name, let available):
            "the preset has no strip '\(name)'; its strips are: \(available.joined(separator: ", "))"
        case .unknownBus(let name, let available):
            "the preset has no bus '\(name)'; its buses are: \(available.joined(separator: ", "))"
        case .duplicate(let kind, let name): "\(kind) '\(name)' is given twice"
        case .unreadableInput(let strip, let error): "input for strip '\(strip)': \(error)"
        case .channelMismatch(let strip, let path, let fileChannels, let stripChannels):
            "input for strip '\(strip)': \(path) has \(fileChannels) channels; a \(stripChannels == 1 ? "mono" : "stereo") strip takes a mono or stereo file"
        case .unwritableOutput(let bus, let error): "output for bus '\(bus)': \(error)"
        case .nothingToRender(let what): what
        case .engine(let message): "engine: \(message)"
        case .writeFailed(let error): "\(error)"
        case .cancelled: "interrupted; no output was written"
        }
    }
}
