// The host's URID map and unmap features: a thread-safe, process-lifetime table of URIs. Non-realtime (plugins map at instantiation).
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLilv
import Glibc
import Synchronization

/// Maps URIs to small integers (URIDs) and back for plugins (`urid:map`, `urid:unmap`).
///
/// Thread-safe (a lock guards the table): plugins may map from their instantiation, worker or
/// state code on any non-realtime thread. URIDs start at 1 and are never reused.
public final class LV2URIDMap: @unchecked Sendable {
    private struct Table {
        var ids: [String: UInt32] = [:]
        var uris: [UnsafeMutablePointer<CChar>] = []
    }

    private let table = Mutex(Table())
    /// The `LV2_URID_Map` handed to plugins; its handle is this object.
    let mapFeature: UnsafeMutablePointer<LV2_URID_Map>
    /// The `LV2_URID_Unmap` handed to plugins.
    let unmapFeature: UnsafeMutablePointer<LV2_URID_Unmap>

    /// An empty map.
    public init() {
        mapFeature = .allocate(capacity: 1)
        unmapFeature = .allocate(capacity: 1)
        let handle = Unmanaged.passUnretained(self).toOpaque()
        mapFeature.initialize(to: LV2_URID_Map(handle: handle, map: { handle, uri in
            guard let handle, let uri else { return 0 }
            return Unmanaged<LV2URIDMap>.fromOpaque(handle).takeUnretainedValue().map(String(cString: uri))
        }))
        unmapFeature.initialize(to: LV2_URID_Unmap(handle: handle, unmap: { handle, urid in
            guard let handle else { return nil }
            return Unmanaged<LV2URIDMap>.fromOpaque(handle).takeUnretainedValue().cString(for: urid)
        }))
    }

    deinit {
        mapFeature.deallocate()
        unmapFeature.deallocate()
        table.withLock { $0.uris.forEach { free($0) } }
    }

    /// The URID of `uri`, assigning the next free one the first time.
    public func map(_ uri: String) -> UInt32 {
        table.withLock { table in
            if let id = table.ids[uri] { return id }
            table.uris.append(strdup(uri))
            let id = UInt32(table.uris.count)
            table.ids[uri] = id
            return id
        }
    }

    /// The URI mapped to `urid`, or nil for an unknown URID.
    public func unmap(_ urid: UInt32) -> String? {
        cString(for: urid).map { String(cString: $0) }
    }

    private func cString(for urid: UInt32) -> UnsafePointer<CChar>? {
        table.withLock { table in
            guard urid >= 1, Int(urid) <= table.uris.count else { return nil }
            return UnsafePointer(table.uris[Int(urid) - 1])
        }
    }
}
