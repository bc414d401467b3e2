// The lilv world: loads the installed LV2 plugin set for discovery and hosting. Non-realtime.
internal import CLilv

/// The set of LV2 plugins installed on this machine, as lilv sees it.
public final class LV2World {
    private let world: OpaquePointer

    /// Loads every installed LV2 bundle (LV2_PATH or the system default).
    public init() {
        world = lilv_world_new()
        lilv_world_load_all(world)
    }

    deinit { lilv_world_free(world) }

    /// The number of installed plugins lilv found.
    public var pluginCount: Int {
        Int(lilv_plugins_size(lilv_world_get_all_plugins(world)))
    }
}
