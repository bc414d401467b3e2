// The presets a live session has loaded, by file and its modification stamp (time, size, inode), so a setlist move reads a song's file once. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
package import FoldbackPresets
import FoldbackGraph

/// Presets loaded by path, kept while their file's ``FileStamp`` (modification time, size, inode) stays the same.
///
/// Each parse of a TOML file keeps memory for good (TOMLKit 0.6.0's `TOMLTable(string:)` never frees the toml++
/// table it creates, nor its error buffer: about 20 KB a switch with the shipped presets), so a show that moves
/// between the same songs hundreds of times reads each file once and then again only when it is edited.
/// At most ``capacity`` files are kept.
package final class PresetFileCache: Sendable {
    /// Files kept at most (the least recently used goes first).
    package static let capacity = 64
    private let files = FileVersionCache<Preset>(capacity: capacity)

    package init() {}

    /// Files kept now.
    package var count: Int { files.count }

    /// The preset at `path`: the one loaded before if its file has not changed since, else read now (with the
    /// installed plugins) and kept.
    /// - Throws: ``PresetError`` as ``PresetLoader/load(path:)`` does; a refused file is not kept.
    package func load(path: String) throws(PresetError) -> Preset {
        try files.value(key: path, path: path) { () throws(PresetError) in try PresetLoader.load(path: path) }
    }
}
