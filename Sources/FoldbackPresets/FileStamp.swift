// What tells an edited file from the one read before: its modification time, size, inode and device. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// A file's identity and version as `stat` gives them, to notice an edit without reading the file.
///
/// The time alone misses edits: the kernel stamps files from a coarse clock (a few milliseconds), so a same-sized
/// edit saved within one tick keeps the time. A save that writes a new file and renames it over the old one (most
/// editors, Foundation's atomic write) gives it a new inode, and an edit in place of another size a new size.
package struct FileStamp: Equatable, Sendable {
    private var seconds: Int
    private var nanoseconds: Int
    private var size: Int64
    private var inode: UInt64
    private var device: UInt64

    /// The stamp of the file at `path` now, or nil when it cannot be read (missing, no permission).
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
        size = Int64(info.st_size)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
    }
}
