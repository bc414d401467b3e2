// Finds a sound-check take on disk: the per-strip raw-input files one `--record-inputs` take wrote. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation

/// A take recorded by `foldback run --record-inputs DIR`: one file per strip, `<stamp>-input-<strip>.<ext>`,
/// all started on the same audio frame (the recorder's input taps share one switch), so frame `n` of every
/// file is the same instant.
public struct SoundcheckTake: Sendable, Equatable {
    /// The take's stamp (`yyyyMMdd-HHmmss`), shared by its files.
    public let stamp: String
    /// Each recorded strip's file.
    public let files: [String: URL]

    /// The take at `url`: a directory (its newest take) or a take's stamp path (`DIR/<stamp>`, its files beside it).
    public init(at url: URL) throws(AudioFileError) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        let directory = exists && isDirectory.boolValue ? url : url.deletingLastPathComponent()
        let wanted = exists && isDirectory.boolValue ? nil : url.lastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var takes: [String: [String: URL]] = [:]
        for name in names where !name.hasPrefix(".") {
            guard let marker = name.range(of: "-input-") else { continue }
            let stamp = String(name[..<marker.lowerBound])
            let rest = name[marker.upperBound...]
            guard let dot = rest.lastIndex(of: "."), ["wav", "w64", "flac"].contains(rest[rest.index(after: dot)...].lowercased()) else { continue }
            takes[stamp, default: [:]][String(rest[..<dot])] = directory.appendingPathComponent(name)
        }
        guard let stamp = wanted ?? takes.keys.max(), let files = takes[stamp], !files.isEmpty else {
            throw .cannotOpen(path: url.path, reason: "no sound-check take (files named <stamp>-input-<strip>.wav from --record-inputs)")
        }
        self.stamp = stamp
        self.files = files
    }
}
