// The presets a live session has loaded, by file and its modification stamp (time, size, inode), so a setlist move reads a song's file once. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
package import FoldbackPresets
import FoldbackGraph
import Synchronization

/// Presets loaded by path, kept while their file's modification time, size and inode stay the same.
///
/// The inode matters: the kernel stamps files from a coarse clock (a few milliseconds), so an editor's save of a
/// same-sized edit in the same tick keeps the time, but a save that writes a new file and renames it over the old one
/// (most editors, Foundation's atomic write) gives it a new inode.
///
/// Each parse of a TOML file keeps memory for good (TOMLKit 0.6.0's `TOMLTable(string:)` never frees the toml++
/// table it creates, nor its error buffer: about 20 KB a switch with the shipped presets), so a show that moves
/// between the same songs hundreds of times reads each file once and then again only when it is edited.
/// At most ``capacity`` files are kept.
package final class PresetFileCache: Sendable {
    private struct Entry {
        var stamp: Stamp
        var preset: Preset
        var lastUse: Int
    }

    private struct Stamp: Equatable {
        var seconds: Int
        var nanoseconds: Int
        var size: Int64
        var inode: UInt64
        var device: UInt64
    }

    /// Files kept at most (the least recently used goes first).
    package static let capacity = 64
    private let entries = Mutex<(table: [String: Entry], clock: Int)>(([:], 0))

    package init() {}

    /// Files kept now.
    package var count: Int { entries.withLock { $0.table.count } }

    /// The preset at `path`: the one loaded before if its file has not changed since, else read now (with the
    /// installed plugins) and kept.
    /// - Throws: ``PresetError`` as ``PresetLoader/load(path:)`` does; a refused file is not kept.
    package func load(path: String) throws(PresetError) -> Preset {
        let stamp = Self.stamp(path)
        let cached = entries.withLock { state -> Preset? in
            guard let stamp, let entry = state.table[path], entry.stamp == stamp else { return nil }
            state.clock += 1
            state.table[path]?.lastUse = state.clock
            return entry.preset
        }
        if let cached { return cached }
        let preset = try PresetLoader.load(path: path)
        guard let stamp else { return preset }
        entries.withLock { state in
            state.clock += 1
            state.table[path] = Entry(stamp: stamp, preset: preset, lastUse: state.clock)
            while state.table.count > Self.capacity, let oldest = state.table.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.table[oldest] = nil
            }
        }
        return preset
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec, size: Int64(info.st_size),
                     inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }
}
