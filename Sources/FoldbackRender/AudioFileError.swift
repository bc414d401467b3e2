// Errors from reading and writing audio files. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Why an audio file could not be read or written; each names the file.
public enum AudioFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or its temporary sibling) could not be created.
    case cannotCreate(path: String, reason: String)
    /// Writing samples or finishing the file failed (disk full, permissions…).
    case writeFailed(path: String, reason: String)
    /// The finished temporary file could not be moved into place.
    case cannotRename(from: String, to: String, reason: String)
    /// The file could not be opened or is not audio libsndfile understands.
    case cannotOpen(path: String, reason: String)
    /// Reading samples failed.
    case readFailed(path: String, reason: String)
    /// A caller passed a value the file cannot hold.
    case invalidArgument(String)

    /// The message to print.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "Cannot create audio file \(path): \(reason)."
        case .writeFailed(let path, let reason): "Cannot write audio file \(path): \(reason)."
        case .cannotRename(let from, let to, let reason): "Cannot move \(from) to \(to): \(reason)."
        case .cannotOpen(let path, let reason): "Cannot open audio file \(path): \(reason)."
        case .readFailed(let path, let reason): "Cannot read audio file \(path): \(reason)."
        case .invalidArgument(let message): message
        }
    }
}
