// Values made from files, kept while each file's stamp is unchanged, a bounded number, least recently used out first. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Synchronization

/// Values read from files (presets, HRTF sets), each kept with its file's ``FileStamp``: asked again for a key whose
/// file is unchanged, the cache answers the kept value; an edited or replaced file is read again. At most
/// `capacity` values are kept, the least recently used going first. A value whose file cannot be stamped, or whose
/// reading throws, is never kept.
package final class FileVersionCache<Value: Sendable>: Sendable {
    private struct Entry {
        var stamp: FileStamp
        var value: Value
        var lastUse: Int
    }

    /// Values kept at most.
    package let capacity: Int
    private let entries = Mutex<(table: [String: Entry], clock: Int)>(([:], 0))

    /// An empty cache keeping at most `capacity` values.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Values kept now.
    package var count: Int { entries.withLock { $0.table.count } }

    /// The value kept under `key` if `path`'s stamp is the one it was read with, else `read()`'s, kept.
    package func value<Failure: Error>(key: String, path: String, read: () throws(Failure) -> Value) throws(Failure) -> Value {
        let stamp = FileStamp(path: path)
        let cached = entries.withLock { state -> Value? in
            guard let stamp, let entry = state.table[key], entry.stamp == stamp else { return nil }
            state.clock += 1
            state.table[key]?.lastUse = state.clock
            return entry.value
        }
        if let cached { return cached }
        let value = try read()
        guard let stamp else { return value }
        entries.withLock { state in
            state.clock += 1
            state.table[key] = Entry(stamp: stamp, value: value, lastUse: state.clock)
            while state.table.count > capacity, let oldest = state.table.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.table[oldest] = nil
            }
        }
        return value
    }
}
