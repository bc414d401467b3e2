// The lilv world: loads the installed LV2 plugin set once, keeps each plugin binary loaded once used; every lilv call goes through its lock. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLilv
import Glibc
import Synchronization

/// The set of LV2 plugins installed on this machine, as lilv sees it.
///
/// lilv's world is not thread-safe, so every query and instantiation runs under one lock
/// (``withWorld(_:)``); none of it may run on the audio thread.
public final class LV2World: @unchecked Sendable {
    private let world: OpaquePointer
    private let lock = Mutex(())
    /// The URID map every plugin instantiated from this world shares.
    public let urids = LV2URIDMap()
    private let summaries = Mutex<[LV2PluginSummary]?>(nil)
    /// Plugin binaries opened once for the process (see ``keepLoaded(library:)``).
    private let keptLibraries = Mutex<Set<String>>([])

    /// The installed plugins (LV2_PATH or the system default), loaded on first use and kept for the process.
    public static let shared = LV2World()

    /// Loads every bundle on `path` (a colon-separated LV2_PATH), or LV2_PATH/the system default when nil.
    public init(path: String? = nil) {
        world = lilv_world_new()
        if let path {
            let node = lilv_new_string(world, path)
            lilv_world_set_option(world, LILV_OPTION_LV2_PATH, node)
            lilv_node_free(node)
        }
        lilv_world_load_all(world)
    }

    deinit { lilv_world_free(world) }

    /// Keeps the plugin binary at `path` loaded for the rest of the process (one `dlopen` with `RTLD_NODELETE`,
    /// once per binary). lilv opens a plugin's binary per instance and closes it with the last one, so a preset
    /// switch between a song with the plugin and one without would unload and map it again each time, and each
    /// load keeps a little memory for good (about 6 KiB a switch measured between an LV2 and a built-in preset).
    func keepLoaded(library path: String) {
        keptLibraries.withLock { kept in
            guard !kept.contains(path), dlopen(path, RTLD_NOW | RTLD_NODELETE) != nil else { return }
            kept.insert(path)
        }
    }

    /// Runs `body` with exclusive use of the lilv world.
    func withWorld<Result, Failure: Error>(_ body: (OpaquePointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try lock.withLock { _ throws(Failure) in try body(world) }
    }

    /// The number of installed plugins lilv found.
    public var pluginCount: Int {
        withWorld { Int(lilv_plugins_size(lilv_world_get_all_plugins($0))) }
    }

    /// Every installed plugin whose URI, name or class contains `text` (case-insensitive), sorted by URI.
    public func plugins(matching text: String? = nil) -> [LV2PluginSummary] {
        let needle = text?.lowercased() ?? ""
        let all = allSummaries()
        return all.filter { summary in
            needle.isEmpty || [summary.uri, summary.name, summary.className].contains { $0.lowercased().contains(needle) }
        }
    }

    /// Every plugin's summary, sorted by URI; read once, then cached.
    private func allSummaries() -> [LV2PluginSummary] {
        if let cached = summaries.withLock({ $0 }) { return cached }
        let all: [LV2PluginSummary] = withWorld { world in
            var list: [LV2PluginSummary] = []
            let plugins = lilv_world_get_all_plugins(world)
            var iterator = lilv_plugins_begin(plugins)
            while !lilv_plugins_is_end(plugins, iterator) {
                if let plugin = lilv_plugins_get(plugins, iterator) {
                    list.append(LV2PluginReader(world: world, plugin: plugin).summary())
                }
                iterator = lilv_plugins_next(plugins, iterator)
            }
            return list.sorted { $0.uri < $1.uri }
        }
        summaries.withLock { $0 = all }
        return all
    }

    /// The installed plugin with `uri`, in full; an unknown URI throws with the closest installed URIs.
    public func plugin(uri: String) throws(LV2Error) -> LV2PluginInfo {
        let info: LV2PluginInfo? = withWorld { world in
            guard let plugin = Self.find(uri, in: world) else { return nil }
            return LV2PluginReader(world: world, plugin: plugin).info()
        }
        guard let info else { throw .unknownPlugin(uri: uri, closest: closestURIs(to: uri)) }
        return info
    }

    /// Up to `limit` installed URIs nearest to `uri` (by shared letter triples, name included).
    public func closestURIs(to uri: String, limit: Int = 3) -> [String] {
        let candidates = plugins()
        return LV2Similarity.closest(to: uri, among: candidates.map { ($0.uri, $0.name) }, limit: limit)
    }

    /// The lilv plugin with `uri`, if installed. Call under the world lock. A URI without a scheme (`*ttp://…`,
    /// a typo or a fuzzed preset) is not installed; it is not handed to lilv, whose store would print an error for it.
    static func find(_ uri: String, in world: OpaquePointer) -> OpaquePointer? {
        guard hasScheme(uri) else { return nil }
        let node = lilv_new_uri(world, uri)
        defer { lilv_node_free(node) }
        return lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), node)
    }

    /// Whether `uri` starts with a scheme (a letter, then letters, digits, `+`, `-` or `.`, then `:`), the test
    /// lilv's store applies before it takes a URI.
    static func hasScheme(_ uri: String) -> Bool {
        guard let colon = uri.utf8.firstIndex(of: UInt8(ascii: ":")), colon != uri.utf8.startIndex else { return false }
        let scheme = uri.utf8[..<colon]
        let isLetter = { (byte: UInt8) in (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        guard let first = scheme.first, isLetter(first) else { return false }
        return scheme.allSatisfy { byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
