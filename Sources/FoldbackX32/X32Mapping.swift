// Which X32 / X-Air addresses stand for which nodes of the parameter tree, and how their values convert. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackControl
public import FoldbackEngine
public import FoldbackPresets
import Foundation

/// How a mapped address's OSC value and its tree node's value convert.
public enum X32Conversion: Sendable, Equatable {
    /// `f` 0…1 on the X32 fader law ↔ dB (``X32FaderLaw``).
    case fader
    /// `i` 1 (on) ↔ mute 0: `mix/on`, `dca/N/on`.
    case onInverted
    /// `i` 0/1 ↔ a 0/1 switch (`/config/mute/N`).
    case toggle
    /// `f` 0…1 ↔ pan −1…+1.
    case pan
    /// `f` 0…1 ↔ the node's value across `range` (a trim of −18…+18 dB).
    case linear(ClosedRange<Float>)
    /// `f` 0…1 ↔ `from` … `to` on a logarithmic scale (frequencies, Q from 10 down to 0.3, release times).
    case logarithmic(from: Float, to: Float)
    /// `i` index ↔ one of these values (a compressor's ratio list); reads the nearest.
    case steps([Float])

    /// The OSC value for tree value `value`.
    public func argument(_ value: Float) -> OSCArgument {
        switch self {
        case .fader: return .float(X32FaderLaw.position(decibels: value))
        case .onInverted: return .int(value == 0 ? 1 : 0)
        case .toggle: return .int(value == 0 ? 0 : 1)
        case .pan: return .float(min(max((value + 1) / 2, 0), 1))
        case let .linear(range): return .float(min(max((value - range.lowerBound) / (range.upperBound - range.lowerBound), 0), 1))
        case let .logarithmic(from, to):
            guard value > 0 else { return .float(0) }
            return .float(min(max(log(value / from) / log(to / from), 0), 1))
        case let .steps(values):
            let nearest = values.indices.min { abs(values[$0] - value) < abs(values[$1] - value) } ?? 0
            return .int(Int32(nearest))
        }
    }

    /// The tree value for OSC value `argument`, or nil when it is not of the address's type and range.
    public func value(_ argument: OSCArgument) -> Float? {
        switch (self, argument) {
        case (.fader, .float(let position)) where (0...1).contains(position): return X32FaderLaw.decibels(position: position)
        case (.onInverted, .int(let on)) where on == 0 || on == 1: return on == 1 ? 0 : 1
        case (.toggle, .int(let on)) where on == 0 || on == 1: return Float(on)
        case (.pan, .float(let position)) where (0...1).contains(position): return position * 2 - 1
        case (.linear(let range), .float(let position)) where (0...1).contains(position):
            return range.lowerBound + position * (range.upperBound - range.lowerBound)
        case (.logarithmic(let from, let to), .float(let position)) where (0...1).contains(position):
            return from * pow(to / from, position)
        case (.steps(let values), .int(let index)) where values.indices.contains(Int(index)): return values[Int(index)]
        default: return nil
        }
    }
}

/// One X32 address standing for a tree node.
public struct X32Binding: Sendable {
    /// The tree node it reads and sets.
    public var node: ParameterNode
    /// How its value converts.
    public var conversion: X32Conversion
    /// False for a send into a bus X32 clients may not change (``X32Mapping/init(preset:tree:dialect:writableBuses:)``).
    public var isWritable = true
}

/// The X32 view of one running preset: channels, buses, main, DCAs and mute groups onto its parameter tree.
///
/// Strips take `/ch/01…` in preset order (up to 32, or 16 on an X-Air), a strip's `x32_channel` first, a stereo strip a
/// linked pair (`/config/chlink/1-2` reads 1; both channels stand for the strip); the bus with
/// `x32_main = true` (else the first with playback connections, else the first) is the main (`/main/st`, `/lr`); the other buses take `/bus/…` in order,
/// and each strip's send to one of them `/ch/NN/mix/MM/…`. A channel's fader is its strip's level (the X32's
/// post-fader sends follow it, as Foldback's do).
public struct X32Mapping: Sendable {
    /// The console this mapping answers as.
    public let dialect: X32Dialect
    /// Every mapped address and its node, in show order (``addresses``).
    public private(set) var bindings: [String: X32Binding] = [:]
    /// Mapped addresses in show order: what subscriptions push.
    public private(set) var addresses: [String] = []
    /// Read-only values the preset gives (names, DCA and mute-group membership, send types).
    public private(set) var fixed: [String: OSCArgument] = [:]
    /// The strip on each `/ch/NN` (index NN − 1; nil for a channel no strip takes), and the buses on `/bus/NN`, by name.
    public private(set) var channels: [String?] = [], buses: [String] = []
    /// The bus on the main, if the preset has a bus.
    public private(set) var mainBus: String?

    /// The trim range a channel's `preamp/trim` spans, as on the console.
    static let trimRange: ClosedRange<Float> = -18...18

    /// The mapping of `preset` playing with `tree`. With `writableBuses`, only sends into those buses (and
    /// nothing else of those buses' masters) take writes from X32 clients; the rest read only.
    public init(preset: Preset, tree: ParameterTree, dialect: X32Dialect, writableBuses: Set<String>? = nil) {
        self.dialect = dialect
        let main = preset.buses.first(where: \.isX32Main) ?? preset.buses.first { $0.connections.contains { !$0.isEmpty } } ?? preset.buses.first
        mainBus = main?.name
        buses = Array(preset.buses.map(\.name).filter { $0 != main?.name }.prefix(dialect.busCount))
        channels = Self.channels(preset.strips, count: dialect.channelCount)
        let isOpen: (String) -> Bool = { writableBuses?.contains($0) ?? true }
        let writableMasters = writableBuses == nil
        for (index, name) in channels.enumerated() {
            guard let strip = preset.strips.first(where: { $0.name == name }) else { continue }
            let ch = dialect.channel(index + 1)
            bind(ch + "/mix/fader", tree, ParameterTree.Path.strip(strip.name, ParameterTree.Key.gain), .fader, writableMasters)
            bind(ch + "/mix/on", tree, ParameterTree.Path.strip(strip.name, ParameterTree.Key.mute), .onInverted, writableMasters)
            bind(ch + "/mix/pan", tree, ParameterTree.Path.strip(strip.name, ParameterTree.Key.pan), .pan, writableMasters)
            bind(ch + "/preamp/trim", tree, ParameterTree.Path.strip(strip.name, ParameterTree.Key.trim), .linear(Self.trimRange), writableMasters)
            bindUnits(ch, strip: strip, tree, writableMasters)
            fixed[ch + "/config/name"] = .string(Self.label(strip.name))
            if index % 2 == 0 { fixed["/config/chlink/\(index + 1)-\(index + 2)"] = .int(channels[index + 1] == name ? 1 : 0) }
            fixed[ch + "/grp/dca"] = .int(Self.mask(preset.dcas, strip.name))
            fixed[ch + "/grp/mute"] = .int(Self.mask(preset.muteGroups, strip.name))
            for (busIndex, bus) in buses.enumerated() {
                let send = dialect.send(channel: index + 1, bus: busIndex + 1)
                guard let spec = strip.sends.first(where: { $0.busName == bus }) else { continue }
                bind(send + "/level", tree, ParameterTree.Path.send(strip.name, bus), .fader, isOpen(bus))
                bind(send + "/pan", tree, ParameterTree.Path.send(strip.name, bus, ParameterTree.Key.pan), .pan, isOpen(bus))
                bind(send + "/on", tree, ParameterTree.Path.send(strip.name, bus, ParameterTree.Key.mute), .onInverted, isOpen(bus))
                fixed[send + "/type"] = .int(spec.isPreFader ? 3 : 4)   // PRE, POST
            }
        }
        for (index, bus) in buses.enumerated() { master(dialect.bus(index + 1), bus: bus, tree, writableMasters) }
        if let main { master(dialect.main, bus: main.name, tree, writableMasters) }
        for (index, dca) in preset.dcas.prefix(dialect.dcaCount).enumerated() {
            bind("/dca/\(index + 1)/fader", tree, ParameterTree.Path.dca(dca.name, ParameterTree.Key.gain), .fader, writableMasters)
            bind("/dca/\(index + 1)/on", tree, ParameterTree.Path.dca(dca.name, ParameterTree.Key.mute), .onInverted, writableMasters)
            fixed["/dca/\(index + 1)/config/name"] = .string(Self.label(dca.name))
        }
        for (index, group) in preset.muteGroups.prefix(dialect.muteGroupCount).enumerated() {
            bind("/config/mute/\(index + 1)", tree, ParameterTree.Path.muteGroup(group.name), .toggle, writableMasters)
        }
        fixed["/-prefs/name"] = .string(Self.label(preset.name ?? "Foldback"))
    }

    /// A channel's `eq` (its first built-in EQ: up to 4 bands) and `dyn` (its first compressor), as the console's
    /// channel EQ and dynamics: gain ±15 dB, 20 Hz…20 kHz, Q 10…0.3; threshold −60…0 dB, the ratio list, attack
    /// 0…120 ms, release 5…4000 ms, knee 0…5 dB, make-up 0…24 dB; `on` is the unit not bypassed.
    private mutating func bindUnits(_ ch: String, strip: StripSpec, _ tree: ParameterTree, _ isWritable: Bool) {
        let unit = { (id: String, key: String) in ParameterTree.Path.unit(ownerKind: "strip", strip.name, id, key) }
        if let eq = strip.units.first(where: { $0.type == "eq" }) {
            bind(ch + "/eq/on", tree, unit(eq.id, ParameterTree.Key.bypass), .onInverted, isWritable)
            for band in 1...4 {
                bind("\(ch)/eq/\(band)/f", tree, unit(eq.id, "band\(band)_freq_hz"), .logarithmic(from: 20, to: 20_000), isWritable)
                bind("\(ch)/eq/\(band)/g", tree, unit(eq.id, "band\(band)_gain_db"), .linear(-15...15), isWritable)
                bind("\(ch)/eq/\(band)/q", tree, unit(eq.id, "band\(band)_q"), .logarithmic(from: 10, to: 0.3), isWritable)
            }
        }
        guard let compressor = strip.units.first(where: { $0.type == "compressor" }) else { return }
        bind(ch + "/dyn/on", tree, unit(compressor.id, ParameterTree.Key.bypass), .onInverted, isWritable)
        bind(ch + "/dyn/thr", tree, unit(compressor.id, "threshold_db"), .linear(-60...0), isWritable)
        bind(ch + "/dyn/ratio", tree, unit(compressor.id, "ratio"), .steps(Self.ratios), isWritable)
        bind(ch + "/dyn/attack", tree, unit(compressor.id, "attack_ms"), .linear(0...120), isWritable)
        bind(ch + "/dyn/release", tree, unit(compressor.id, "release_ms"), .logarithmic(from: 5, to: 4000), isWritable)
        bind(ch + "/dyn/knee", tree, unit(compressor.id, "knee_db"), .linear(0...5), isWritable)
        bind(ch + "/dyn/mgain", tree, unit(compressor.id, "makeup_db"), .linear(0...24), isWritable)
    }

    /// The console's compressor ratios, by `dyn/ratio` index (100 stands for limiting; Foldback's ratio stops at 20).
    static let ratios: [Float] = [1.1, 1.3, 1.5, 2, 2.5, 3, 4, 5, 7, 10, 20, 100]

    private mutating func master(_ prefix: String, bus: String, _ tree: ParameterTree, _ isWritable: Bool) {
        bind(prefix + "/mix/fader", tree, ParameterTree.Path.bus(bus, ParameterTree.Key.gain), .fader, isWritable)
        bind(prefix + "/mix/on", tree, ParameterTree.Path.bus(bus, ParameterTree.Key.mute), .onInverted, isWritable)
        fixed[prefix + "/config/name"] = .string(Self.label(bus))
    }

    private mutating func bind(_ address: String, _ tree: ParameterTree, _ path: String, _ conversion: X32Conversion, _ isWritable: Bool) {
        guard let node = tree.node(at: path) else { return }
        bindings[address] = X32Binding(node: node, conversion: conversion, isWritable: isWritable)
        addresses.append(address)
    }

    /// The strip on each of `count` channels: those with an `x32_channel` on theirs, the others on the free ones in
    /// preset order. A stereo strip takes a linked pair (1-2, 3-4, …): its `x32_channel` names either channel of the pair,
    /// else the next free pair; a stereo strip with no free pair left is not mapped.
    static func channels(_ strips: [StripSpec], count: Int) -> [String?] {
        var slots = [String?](repeating: nil, count: count)
        var unplaced: [StripSpec] = []
        for strip in strips {
            let width = strip.channels > 1 ? 2 : 1
            if let channel = strip.x32Channel, channel <= count {
                let first = width == 2 ? (channel - 1) / 2 * 2 : channel - 1
                if first + width <= count, slots[first..<(first + width)].allSatisfy({ $0 == nil }) {
                    for index in first..<(first + width) { slots[index] = strip.name }
                    continue
                }
            }
            unplaced.append(strip)
        }
        for strip in unplaced {
            let width = strip.channels > 1 ? 2 : 1
            guard let first = stride(from: 0, to: count - width + 1, by: width).first(where: { first in
                slots[first..<(first + width)].allSatisfy { $0 == nil }
            }) else { continue }
            for index in first..<(first + width) { slots[index] = strip.name }
        }
        return slots
    }

    /// A console name: at most 12 characters.
    static func label(_ name: String) -> String { String(name.prefix(12)) }

    /// The bit mask of the groups among `groups` (first group bit 0) that hold strip `strip`.
    private static func mask(_ groups: [StripGroupSpec], _ strip: String) -> Int32 {
        var mask: Int32 = 0
        for (index, group) in groups.prefix(8).enumerated() where group.strips.contains(strip) { mask |= 1 << index }
        return mask
    }
}
