// Reads a lilv plugin's description (ports, ranges, presets, features) into Foldback's types. Non-realtime, under the world lock.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLilv

/// Reads one plugin's data from the lilv world; use only inside ``LV2World/withWorld(_:)``.
struct LV2PluginReader {
    let world: OpaquePointer
    let plugin: OpaquePointer

    /// URI, name, class and audio port counts.
    func summary() -> LV2PluginSummary {
        let uri = Self.string(lilv_plugin_get_uri(plugin)) ?? "?"
        let nameNode = lilv_plugin_get_name(plugin)
        defer { lilv_node_free(nameNode) }
        let className = lilv_plugin_get_class(plugin).flatMap { Self.string(lilv_plugin_class_get_label($0)) } ?? "Plugin"
        var inputs = 0, outputs = 0
        for index in 0..<lilv_plugin_get_num_ports(plugin) {
            let port = lilv_plugin_get_port_by_index(plugin, index)
            guard isA(port, LV2URI.audioPort) else { continue }
            if isA(port, LV2URI.inputPort) { inputs += 1 } else { outputs += 1 }
        }
        return LV2PluginSummary(
            uri: uri, name: Self.string(nameNode) ?? uri, className: className, audioInputs: inputs, audioOutputs: outputs)
    }

    /// Everything Foldback uses about the plugin.
    func info() -> LV2PluginInfo {
        let hardRT = uriNode(LV2URI.hardRTCapable)
        defer { lilv_node_free(hardRT) }
        let count = Int(lilv_plugin_get_num_ports(plugin))
        let latency = lilv_plugin_has_latency(plugin) ? Int(lilv_plugin_get_latency_port_index(plugin)) : nil
        let bundle = Self.string(lilv_plugin_get_bundle_uri(plugin)).map(Self.path(fromFileURI:)) ?? ""
        return LV2PluginInfo(
            summary: summary(), ports: (0..<count).map(port(at:)), presets: presets(),
            requiredFeatures: Self.strings(lilv_plugin_get_required_features(plugin)),
            optionalFeatures: Self.strings(lilv_plugin_get_optional_features(plugin)),
            latencyPortIndex: latency, isHardRTCapable: lilv_plugin_has_feature(plugin, hardRT), bundle: bundle)
    }

    private func port(at index: Int) -> LV2PortInfo {
        let port = lilv_plugin_get_port_by_index(plugin, UInt32(index))
        let symbol = Self.string(lilv_port_get_symbol(plugin, port)) ?? "port\(index)"
        let nameNode = lilv_port_get_name(plugin, port)
        defer { lilv_node_free(nameNode) }
        var defaultNode: OpaquePointer?, minimumNode: OpaquePointer?, maximumNode: OpaquePointer?
        lilv_port_get_range(plugin, port, &defaultNode, &minimumNode, &maximumNode)
        defer { [defaultNode, minimumNode, maximumNode].forEach { lilv_node_free($0) } }
        var range: ClosedRange<Float>?
        if let minimumNode, let maximumNode, lilv_node_is_float(minimumNode) || lilv_node_is_int(minimumNode) {
            let low = lilv_node_as_float(minimumNode), high = lilv_node_as_float(maximumNode)
            if low <= high { range = low...high }
        }
        let defaultValue = defaultNode.map { lilv_node_as_float($0) }
        return LV2PortInfo(
            index: index, symbol: symbol, name: Self.string(nameNode) ?? symbol, kind: kind(of: port),
            isInput: isA(port, LV2URI.inputPort), range: range, defaultValue: defaultValue, unit: unitSymbol(of: port),
            isToggled: has(port, property: LV2URI.toggled), isInteger: has(port, property: LV2URI.integer),
            isEnabledDesignation: index == enabledPortIndex(),
            minimumSize: portValue(port, LV2URI.minimumSize).flatMap { Int($0) },
            isLogarithmic: has(port, property: LV2URI.logarithmic), isEnumeration: has(port, property: LV2URI.enumeration),
            scalePoints: scalePoints(of: port))
    }

    private func scalePoints(of port: OpaquePointer?) -> [LV2ScalePoint] {
        guard let points = lilv_port_get_scale_points(plugin, port) else { return [] }
        defer { lilv_scale_points_free(points) }
        var list: [LV2ScalePoint] = []
        var iterator = lilv_scale_points_begin(points)
        while !lilv_scale_points_is_end(points, iterator) {
            if let point = lilv_scale_points_get(points, iterator), let value = lilv_scale_point_get_value(point) {
                let label = Self.string(lilv_scale_point_get_label(point)) ?? "\(lilv_node_as_float(value))"
                list.append(LV2ScalePoint(label: label, value: lilv_node_as_float(value)))
            }
            iterator = lilv_scale_points_next(points, iterator)
        }
        return list.sorted { $0.value < $1.value }
    }

    /// The one `lv2:enabled` input (lilv's choice when a plugin's data designates several).
    private func enabledPortIndex() -> Int? {
        let input = uriNode(LV2URI.inputPort), enabled = uriNode(LV2URI.enabled)
        defer { lilv_node_free(input); lilv_node_free(enabled) }
        return lilv_plugin_get_port_by_designation(plugin, input, enabled).map { Int(lilv_port_get_index(plugin, $0)) }
    }

    private func kind(of port: OpaquePointer?) -> LV2PortInfo.Kind {
        if isA(port, LV2URI.audioPort) { return .audio }
        if isA(port, LV2URI.controlPort) { return .control }
        if isA(port, LV2URI.atomPort) { return .atom }
        if isA(port, LV2URI.cvPort) { return .cv }
        return .other
    }

    private func presets() -> [LV2PresetInfo] {
        let presetClass = uriNode(LV2URI.presetClass)
        let label = uriNode(LV2URI.rdfsLabel)
        defer { lilv_node_free(presetClass); lilv_node_free(label) }
        guard let related = lilv_plugin_get_related(plugin, presetClass) else { return [] }
        defer { lilv_nodes_free(related) }
        var list: [LV2PresetInfo] = []
        var iterator = lilv_nodes_begin(related)
        while !lilv_nodes_is_end(related, iterator) {
            if let preset = lilv_nodes_get(related, iterator), let uri = Self.string(preset) {
                lilv_world_load_resource(world, preset)
                let labelNode = lilv_world_get(world, preset, label, nil)
                defer { lilv_node_free(labelNode) }
                let fallback = String(uri.split(whereSeparator: { $0 == "#" || $0 == "/" }).last ?? Substring(uri))
                list.append(LV2PresetInfo(uri: uri, label: Self.string(labelNode) ?? fallback))
            }
            iterator = lilv_nodes_next(related, iterator)
        }
        return list.sorted { $0.label < $1.label }
    }

    private func unitSymbol(of port: OpaquePointer?) -> String? {
        let unitKey = uriNode(LV2URI.unitsUnit)
        let symbolKey = uriNode(LV2URI.unitsSymbol)
        defer { lilv_node_free(unitKey); lilv_node_free(symbolKey) }
        guard let unit = lilv_port_get(plugin, port, unitKey) else { return nil }
        defer { lilv_node_free(unit) }
        let symbol = lilv_world_get(world, unit, symbolKey, nil)
        defer { lilv_node_free(symbol) }
        if let symbol { return Self.string(symbol) }
        return Self.string(unit).map { String($0.split(separator: "#").last ?? Substring($0)) }
    }

    private func isA(_ port: OpaquePointer?, _ uri: String) -> Bool {
        let node = uriNode(uri)
        defer { lilv_node_free(node) }
        return lilv_port_is_a(plugin, port, node)
    }

    private func has(_ port: OpaquePointer?, property uri: String) -> Bool {
        let node = uriNode(uri)
        defer { lilv_node_free(node) }
        return lilv_port_has_property(plugin, port, node)
    }

    private func portValue(_ port: OpaquePointer?, _ predicate: String) -> String? {
        let node = uriNode(predicate)
        defer { lilv_node_free(node) }
        guard let value = lilv_port_get(plugin, port, node) else { return nil }
        defer { lilv_node_free(value) }
        return Self.string(value)
    }

    private func uriNode(_ uri: String) -> OpaquePointer? { lilv_new_uri(world, uri) }

    /// A node's text (URI or literal); nil for a null node.
    static func string(_ node: OpaquePointer?) -> String? {
        guard let node, let text = lilv_node_as_string(node) else { return nil }
        return String(cString: text)
    }

    /// The node collection's texts, freeing it.
    static func strings(_ nodes: UnsafeMutableRawPointer?) -> [String] {
        guard let nodes else { return [] }
        defer { lilv_nodes_free(nodes) }
        var list: [String] = []
        var iterator = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, iterator) {
            if let text = string(lilv_nodes_get(nodes, iterator)) { list.append(text) }
            iterator = lilv_nodes_next(nodes, iterator)
        }
        return list
    }

    /// `file:///usr/lib/lv2/x.lv2/` → `/usr/lib/lv2/x.lv2/`.
    static func path(fromFileURI uri: String) -> String {
        uri.hasPrefix("file://") ? String(uri.dropFirst(7)) : uri
    }
}
