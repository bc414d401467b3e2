// The X32 / X-Air protocol of one port: identity, gets and sets on the tree or its shadow, subscriptions and their pushes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import Foundation

/// One console as X32 or X-Air clients see it, answering through the session's ``ControlRouter``.
///
/// Mapped addresses (``X32Mapping``) read the parameter tree and set it through the router, like every other
/// surface; every other documented address answers from a shadow (``X32Documented``): stored, with no effect on
/// the audio. Input that is not the documented type, range or size is refused, counted (``refusals``) and changes
/// nothing. Not thread-safe: its port's thread owns it (``X32Server``).
public final class X32Console: @unchecked Sendable {
    /// A message to send and where.
    public typealias Outgoing = (message: OSCMessage, peer: OSCPeer)

    /// The console this port answers as.
    public let dialect: X32Dialect
    let target: any LiveControlTarget
    private let router: ControlRouter
    private let address: String
    private let writableBuses: Set<String>?
    /// The mapping of the graph playing, rebuilt when a new graph is installed (a preset switch).
    public private(set) var mapping: X32Mapping
    private var graph: ObjectIdentifier?
    /// Set when the mapping was rebuilt: the next tick compares (and pushes) the names and fixed values too.
    private var isRebuilt = false
    private var changeCount = -1
    /// Every documented leaf's value (default or stored), and the leaves in document order.
    private var shadow: [String: OSCArgument] = [:]
    private let order: [String]
    /// Names X32 clients gave mapped channels, buses and DCAs (labels only: Foldback's names stay).
    private var labels: [String: String] = [:]
    /// The value each mapped address was last pushed (or set) with.
    private var lastSent: [String: OSCArgument] = [:]
    /// Who listens.
    public internal(set) var subscriptions = X32Subscriptions()
    /// Messages refused so far, and why the last one was.
    public private(set) var refusals = 0
    public private(set) var lastRefusal = ""

    /// The longest string a shadow leaf stores; names take 12 characters.
    static let stringLimit = 64

    /// A console for `target`, setting through `router`; `address` is the IP `/xinfo` and `/status` name (for
    /// `0.0.0.0`, every interface, the machine's address on the route to the asking client). X32 clients may change
    /// only sends into `writableBuses` when given, else into the playing preset's `[x32] buses` when it has them.
    public init(dialect: X32Dialect, target: any LiveControlTarget, router: ControlRouter, address: String, writableBuses: Set<String>? = nil) {
        self.dialect = dialect
        self.target = target
        self.router = router
        self.address = address
        self.writableBuses = writableBuses
        let documented = X32Documented.addresses(dialect)
        order = documented.map(\.address)
        for (leaf, value) in documented where shadow[leaf] == nil { shadow[leaf] = value }
        mapping = X32Mapping(preset: target.currentPreset, tree: ParameterTree(nodes: []), dialect: dialect)
        refreshMapping()
        isRebuilt = false
        for leaf in mapping.addresses + mapping.fixed.keys { lastSent[leaf] = value(at: leaf) }
    }

    /// The answer to a query of `leaf` now, or nil for an address the console does not have.
    public func value(at leaf: String) -> OSCArgument? {
        if let binding = mapping.bindings[leaf] {
            return binding.conversion.argument(target.engine.value(at: binding.node.address) ?? binding.node.presetValue)
        }
        if let label = labels[leaf] { return .string(label) }
        return mapping.fixed[leaf] ?? shadow[leaf]
    }

    /// The replies to `message` from `sender`, and the pushes it causes to other clients.
    public func receive(_ message: OSCMessage, from sender: OSCPeer, now: Double) -> [Outgoing] {
        refreshMapping()
        let path = message.path, arguments = message.arguments
        let reply: (OSCMessage) -> [Outgoing] = { [($0, sender)] }
        switch path {
        case "/info":
            return reply(OSCMessage(path, [.string(dialect.serverVersion), .string(consoleName), .string(dialect.model), .string(dialect.firmware)]))
        case "/xinfo":
            return reply(OSCMessage(path, [.string(address(for: sender)), .string(consoleName), .string(dialect.model), .string(dialect.firmware)]))
        case "/status":
            return reply(OSCMessage(path, [.string("active"), .string(address(for: sender)), .string(consoleName)]))
        case "/xremote", "/xremotenfb":   // an X-Air's /xremote echoes a client's own sets; /xremotenfb ("no feedback") does not
            guard arguments.isEmpty else { return refuse(message, "takes no arguments") }
            let echo = dialect == .xair && path == "/xremote"
            if !subscriptions.remote(sender, now: now, echo: echo) { refuse(message, "too many clients (\(X32Subscriptions.clientLimit))") }
            return []
        case "/renew":
            guard arguments.isEmpty || (arguments.count == 1 && arguments[0].text != nil) else { return refuse(message, "takes an optional address") }
            subscriptions.renew(sender, address: arguments.first?.text, now: now)
            return []
        case "/unsubscribe":
            guard arguments.isEmpty || (arguments.count == 1 && arguments[0].text != nil) else { return refuse(message, "takes an optional alias") }
            subscriptions.remove(sender, address: arguments.first?.text)
            return []
        case "/subscribe", "/meters", "/batchsubscribe", "/formatsubscribe":
            return periodic(message, from: sender, now: now)
        case "/node":
            guard arguments.count == 1, let node = arguments[0].text, node.utf8.count <= Self.stringLimit else {
                return refuse(message, "takes one string, the node")
            }
            return reply(OSCMessage(path, [.string(nodeText(node))]))
        default:
            guard let current = value(at: path) else { return refuse(message, "no such address") }
            if arguments.isEmpty { return reply(OSCMessage(path, [current])) }
            return set(message, current: current, from: sender)
        }
    }

    /// Everything due at `now`: changes from any surface to `/xremote` clients, and periodic answers.
    public func tick(now: Double) -> [Outgoing] {
        subscriptions.expire(now: now)
        refreshMapping()
        let rebuilt = isRebuilt
        isRebuilt = false
        var outgoing: [Outgoing] = []
        let count = target.engine.parameterChangeCount
        if rebuilt || count != changeCount {
            changeCount = count
            let leaves = rebuilt ? mapping.addresses + mapping.fixed.keys.sorted() : mapping.addresses
            for leaf in leaves {
                guard let current = value(at: leaf), lastSent[leaf] != current else { continue }
                lastSent[leaf] = current
                for peer in subscriptions.remotes.keys { outgoing.append((OSCMessage(leaf, [current]), peer)) }
            }
        }
        return outgoing + answers(subscriptions.due(now: now))
    }

    /// The IP this console is reached on by `peer`: the bound address, or when bound to every interface the one
    /// on the route to `peer` (its LAN address for a tablet on the LAN, 127.0.0.1 for a client on this machine).
    func address(for peer: OSCPeer) -> String {
        guard address == "0.0.0.0" else { return address }
        return peer.localHost() ?? "127.0.0.1"
    }

    /// The console's name: the preset's (a label set on `/-prefs/name` wins).
    private var consoleName: String {
        labels["/-prefs/name"] ?? mapping.fixed["/-prefs/name"]?.text ?? "Foldback"
    }

    /// Rebuilds the mapping when a new graph plays (a preset switch).
    private func refreshMapping() {
        guard let running = target.engine.graph else { return }
        let id = ObjectIdentifier(running)
        guard id != graph else { return }
        graph = id
        isRebuilt = true
        let preset = target.currentPreset
        let writable = writableBuses ?? preset.x32Buses.map(Set.init)   // the preset's `[x32] buses`, unless given
        mapping = X32Mapping(preset: preset, tree: ParameterPath.tree(graph: running, preset: preset), dialect: dialect, writableBuses: writable)
        labels = [:]
    }

    private func set(_ message: OSCMessage, current: OSCArgument, from sender: OSCPeer) -> [Outgoing] {
        let leaf = message.path
        guard message.arguments.count == 1 else { return refuse(message, "takes one value") }
        let argument = message.arguments[0]
        if let binding = mapping.bindings[leaf] {
            guard binding.isWritable else { return refuse(message, "read only for X32 clients ([x32] buses)") }
            guard var value = binding.conversion.value(argument) else { return refuse(message, "wants \(current.typeTag) in range") }
            value = min(max(value, binding.node.range.lowerBound), binding.node.range.upperBound)   // the console's span may pass Foldback's
            let request = OSCMessage(ControlRouter.root + "/" + binding.node.path, [binding.node.isSwitch ? .int(Int32(value)) : .float(value)])
            if let error = router.handle(request, from: sender, surface: .x32).first {
                return refuse(message, error.arguments.last?.text ?? "refused")
            }
        } else if mapping.fixed[leaf] != nil {
            guard leaf.hasSuffix("/config/name") || leaf == "/-prefs/name", let name = argument.text, name.count <= 12 else {
                return refuse(message, "read only (the preset decides it)")
            }
            labels[leaf] = name
        } else {
            guard Self.accepts(argument, like: current) else { return refuse(message, "wants \(current.typeTag) in range") }
            shadow[leaf] = argument
        }
        guard let now = value(at: leaf) else { return [] }
        lastSent[leaf] = now
        return subscriptions.recipients(of: sender).map { (OSCMessage(leaf, [now]), $0) }
    }

    /// Whether a shadow leaf of value `current` takes `argument`: the same type; a float in 0…1, an integer in
    /// −1…65535, a string up to ``stringLimit`` bytes.
    static func accepts(_ argument: OSCArgument, like current: OSCArgument) -> Bool {
        switch (argument, current) {
        case let (.float(value), .float): return (0...1).contains(value)
        case let (.int(value), .int): return (-1...65535).contains(value)
        case let (.string(text), .string): return text.utf8.count <= stringLimit
        default: return false
        }
    }

    /// Counts a packet that is not one readable OSC message (a bundle, a truncated or malformed packet).
    public func noteUnreadable(_ size: Int) {
        refusals += 1
        lastRefusal = "a \(size)-byte packet that is not one OSC message (bundles are not read)"
    }

    @discardableResult
    func refuse(_ message: OSCMessage, _ reason: String) -> [Outgoing] {
        refusals += 1
        lastRefusal = "\(message.path.prefix(80)) \(message.typeTags.prefix(16)): \(reason)"
        return []
    }

    /// `/node` text: the leaves right under `node` (`ch/01/mix`) in document order, as the console prints them.
    func nodeText(_ node: String) -> String {
        let prefix = "/" + node.trimmingPrefix("/") + "/"
        var words: [String] = []
        for leaf in order where leaf.hasPrefix(prefix) && !leaf.dropFirst(prefix.count).contains("/") {
            if let current = value(at: leaf) { words.append(Self.word(current, leaf: leaf)) }
        }
        if words.isEmpty, let current = value(at: String(prefix.dropLast())) { words.append(Self.word(current, leaf: String(prefix.dropLast()))) }
        return String(prefix.dropLast()) + " " + words.joined(separator: " ") + "\n"
    }

    /// One value as `/node` prints it: ON/OFF, a fader in dB (`-oo` for off), a pan in −100…+100, a quoted name.
    static func word(_ value: OSCArgument, leaf: String) -> String {
        switch value {
        case let .int(number) where leaf.hasSuffix("/on"): return number == 0 ? "OFF" : "ON"
        case let .float(position) where leaf.hasSuffix("/fader") || leaf.hasSuffix("/level"):
            let decibels = X32FaderLaw.decibels(position: position)
            return decibels.isFinite ? String(format: "%+.1f", decibels) : "-oo"
        case let .float(position) where leaf.hasSuffix("/pan"): return String(format: "%+d", Int((position * 200 - 100).rounded()))
        case let .float(number): return String(format: "%.4f", number)
        case let .int(number): return String(number)
        case let .string(text): return "\"\(text)\""
        case let .blob(bytes): return "<\(bytes.count) bytes>"
        }
    }
}
