// Restores an instance's state (default state, an LV2 preset, a saved state file) and saves it to a file. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLilv
import Glibc

extension LV2Instance {
    /// Where a state to restore comes from.
    enum StateSource {
        /// The plugin's own default state (`state:state` in its bundle), if it has one.
        case pluginDefault
        /// An LV2 preset, by URI.
        case preset(uri: String)
        /// A state saved by ``LV2Unit/saveState(to:)`` (the path of its `.ttl`).
        case file(path: String)
    }

    /// Applies `source`: port values go into the control buffer, the rest through the plugin's state
    /// interface. Before the instance runs only. A missing default state is not an error.
    func restore(_ source: StateSource) throws(LV2Error) {
        let map = world.urids.mapFeature
        let instance = instance
        let features = features.array
        let userData = Unmanaged.passUnretained(self).toOpaque()
        let failure: LV2Error? = world.withWorld { lilvWorld in
            let state: OpaquePointer?
            switch source {
            case .pluginDefault:
                let subject = lilv_new_uri(lilvWorld, info.uri)
                let predicate = lilv_new_uri(lilvWorld, "http://lv2plug.in/ns/ext/state#state")
                defer { lilv_node_free(subject); lilv_node_free(predicate) }
                guard lilv_world_ask(lilvWorld, subject, predicate, nil) else { return nil }
                state = lilv_state_new_from_world(lilvWorld, map, subject)
            case .preset(let uri):
                let subject = lilv_new_uri(lilvWorld, uri)
                defer { lilv_node_free(subject) }
                lilv_world_load_resource(lilvWorld, subject)
                state = lilv_state_new_from_world(lilvWorld, map, subject)
            case .file(let path):
                guard access(path, R_OK) == 0 else { return .stateFailed(plugin: info.uri, path: path, reason: "cannot be read") }
                state = lilv_state_new_from_file(lilvWorld, map, nil, path)
            }
            guard let state else {
                if case .pluginDefault = source { return nil }
                let path = if case .file(let path) = source { path } else { "\(source)" }
                return .stateFailed(plugin: info.uri, path: path, reason: "lilv could not load a state from it")
            }
            defer { lilv_state_free(state) }
            lilv_state_restore(state, instance, Self.setPortValue, userData, 0, features)
            return nil
        }
        if let failure { throw failure }
    }

    /// Saves the instance's state (control inputs and the plugin's own state) as a lilv state bundle:
    /// `directory/manifest.ttl` and `directory/state.ttl`. Returns the `.ttl` path to restore from.
    /// Off the audio thread; a plugin's state save may run alongside its `run` (LV2 state rules).
    func save(to directory: String) throws(LV2Error) -> String {
        let map = world.urids.mapFeature, unmap = world.urids.unmapFeature
        let instance = instance
        let features = features.array
        let userData = Unmanaged.passUnretained(self).toOpaque()
        let uri = info.uri
        let status: Int32 = world.withWorld { lilvWorld in
            guard let plugin = LV2World.find(uri, in: lilvWorld),
                  let state = lilv_state_new_from_instance(
                      plugin, instance, map, nil, directory, directory, directory, Self.portValue, userData,
                      UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue), features)
            else { return -1 }
            defer { lilv_state_free(state) }
            return lilv_state_save(lilvWorld, map, unmap, state, nil, directory, "state.ttl")
        }
        guard status == 0 else { throw .stateFailed(plugin: uri, path: directory, reason: "lilv could not save the state (status \(status))") }
        return directory + (directory.hasSuffix("/") ? "" : "/") + "state.ttl"
    }

    private static let setPortValue: @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeRawPointer?, UInt32, UInt32) -> Void = {
        symbol, userData, value, size, type in
        guard let symbol, let userData, let value else { return }
        let instance = Unmanaged<LV2Instance>.fromOpaque(userData).takeUnretainedValue()
        let urids = instance.world.urids
        let number: Float
        switch type {
        case urids.map(LV2URI.atomFloat) where size == 4: number = value.load(as: Float.self)
        case urids.map("http://lv2plug.in/ns/ext/atom#Double") where size == 8: number = Float(value.load(as: Double.self))
        case urids.map(LV2URI.atomInt) where size == 4: number = Float(value.load(as: Int32.self))
        default: return
        }
        instance.setControl(String(cString: symbol), to: number)
    }

    private static let portValue: @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?) -> UnsafeRawPointer? = {
        symbol, userData, size, type in
        guard let symbol, let userData else { return nil }
        let instance = Unmanaged<LV2Instance>.fromOpaque(userData).takeUnretainedValue()
        guard let port = instance.info.port(symbol: String(cString: symbol)), port.kind == .control, port.isInput else { return nil }
        size?.pointee = 4
        type?.pointee = instance.world.urids.map(LV2URI.atomFloat)
        return UnsafeRawPointer(instance.render.controls + port.index)
    }
}
