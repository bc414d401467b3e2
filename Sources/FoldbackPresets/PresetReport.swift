// Renders a preset's resolved chain as text for `foldback check`. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

/// A console engineer's view of a loaded preset: every strip with its JACK input ports and
/// connections, its units in order with every parameter (defaults included), fader, pan, switches
/// and sends; then every bus with its output ports, connections, gain and mute.
public enum PresetReport {
    /// The report for `preset`, with ports named as JACK client `clientName` will show them.
    public static func render(_ preset: Preset, clientName: String = "foldback") -> String {
        var lines: [String] = []
        let inputs = preset.strips.filter(\.hasInputPorts).reduce(0) { $0 + $1.channels }
        let outputs = preset.buses.filter(\.hasOutput).reduce(0) { $0 + $1.channels } + (preset.cue == nil ? 0 : 2)
        lines.append(row("Preset", preset.name ?? "(unnamed)"))
        if let description = preset.description {
            lines.append(row("", description))
        }
        lines.append(row("File", preset.path))
        lines.append(row("Client", "\(clientName): \(count(inputs, "input port")), \(count(outputs, "output port"))"))
        for (index, strip) in preset.strips.enumerated() {
            lines.append("")
            lines += stripLines(strip, number: index + 1, clientName: clientName, binauralBuses: Set(preset.buses.filter(\.isBinaural).map(\.name)))
        }
        for (index, bus) in preset.buses.enumerated() {
            lines.append("")
            lines += busLines(bus, number: index + 1, clientName: clientName)
        }
        if let cue = preset.cue {
            lines += ["", "Cue  (stereo: any bus, strip PFL or AFL, over OSC and MIDI)"]
            lines += block("outputs", portLines(PortNaming.cuePortNames.map { "\(clientName):\($0)" }, connections: cue.connections, arrow: "->"))
            lines.append(row("  gain", NumberFormatting.decibels(cue.gainDB)))
            lines.append(limiterLine(cue.limiter))
        }
        if !preset.midi.isDefault { lines += [""] + MIDIMapText.lines(preset.midi, preset: preset) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func stripLines(_ strip: StripSpec, number: Int, clientName: String, binauralBuses: Set<String>) -> [String] {
        var lines = ["Strip \(number)  \(strip.name)  (\(layout(strip.channels)))"]
        let ports = PortNaming.inputPortNames(strip: strip.name, channels: strip.channels).map { "\(clientName):\($0)" }
        if let source = strip.source {
            lines += block("source", [FileSourceSpec.reportLine(source)])
        } else if let bus = strip.returnBus {
            lines += block("return", ["<- bus \(bus) (effect return: no input ports)"])
        } else {
            lines += block("inputs", portLines(ports, connections: strip.connections, arrow: "<-"))
        }
        if strip.trimDB != 0 || strip.trimCompensates {
            lines.append(row("  trim", NumberFormatting.decibels(strip.trimDB) + (strip.trimCompensates ? "   live moves compensated" : "")))
        }
        lines += block("units", unitLines(strip.units))
        let panMode = strip.channels == 1 ? "" : " (balance)"
        lines.append(row("  fader", [
            NumberFormatting.decibels(strip.gainDB),
            "pan \(NumberFormatting.pan(strip.pan))\(panMode)",
            "mute \(onOff(strip.isMuted))",
            "solo \(onOff(strip.isSoloed))",
            strip.isEnabled ? "enabled" : "DISABLED",
        ].joined(separator: "   ")))
        let busWidth = strip.sends.map(\.busName.count).max() ?? 0
        let sends = strip.sends.map { send in
            "-> \(pad(send.busName, busWidth))  \(NumberFormatting.decibels(send.gainDB))  \(send.isPreFader ? "pre-fader" : "post-fader")"
                + (binauralBuses.contains(send.busName) ? "   " + placement(send.position ?? BinauralPosition()) : "")
        }
        if let talkback = strip.talkback {
            let buses = talkback.busNames.joined(separator: ", ")
            lines += block("talkback", ["-> \(buses) while pressed, dimming them \(NumberFormatting.decibels(talkback.dimDB, width: 0))"])
        } else {
            lines += block("sends", sends.isEmpty ? ["(none: not heard on any bus)"] : sends)
        }
        return lines
    }

    private static func busLines(_ bus: BusSpec, number: Int, clientName: String) -> [String] {
        let kind = (bus.isInEar ? ", in-ear" : "") + (bus.hasOutput ? "" : ", effect bus") + (bus.isCompensated ? "" : ", not compensated")
            + (bus.isBinaural ? ", binaural: \(bus.hrtfPath ?? "Debian KEMAR set")" : "")
            + (bus.roomDB.map { ", room \(NumberFormatting.decibels($0, width: 0))" } ?? "")
        var lines = ["Bus \(number)  \(bus.name)  (\(layout(bus.channels))\(kind))"]
        let ports = PortNaming.outputPortNames(bus: bus.name, channels: bus.channels).map { "\(clientName):\($0)" }
        lines += block("outputs", bus.hasOutput ? portLines(ports, connections: bus.connections, arrow: "->") : ["(none: output = false)"])
        if !bus.units.isEmpty { lines += block("units", unitLines(bus.units)) }
        lines.append(row("  gain", "\(NumberFormatting.decibels(bus.gainDB))   mute \(onOff(bus.isMuted))"))
        if let limiter = bus.limiter {
            lines.append(limiterLine(limiter))
        } else {
            lines.append(row("  limiter", "off"))
        }
        return lines
    }

    /// `  limiter  ceiling -1.0 dBFS   release 50 ms   lookahead 1.5 ms`.
    private static func limiterLine(_ limiter: LimiterSettings) -> String {
        let mode = limiter.mode == .zeroLatency ? "zero latency" : "lookahead \(NumberFormatting.plain(limiter.lookaheadMs)) ms"
        return row("  limiter", "ceiling \(NumberFormatting.decibels(limiter.ceilingDB, width: 0))FS   release \(NumberFormatting.plain(limiter.releaseMs)) ms   \(mode)")
    }

    /// `foldback:vox_in  <- system:capture_1, system:capture_2`, port names aligned.
    private static func portLines(_ ports: [String], connections: [[String]], arrow: String) -> [String] {
        let width = ports.map(\.count).max() ?? 0
        return ports.enumerated().map { index, port in
            let targets = index < connections.count ? connections[index] : []
            let wiring = targets.isEmpty ? "(not connected)" : targets.joined(separator: ", ")
            return "\(pad(port, width))  \(arrow) \(wiring)"
        }
    }

    /// `1. trim  gain  gain_db=6 polarity=normal`, ids and types aligned; an eq's bands follow, one a line.
    private static func unitLines(_ units: [UnitSpec]) -> [String] {
        guard !units.isEmpty else { return ["(none)"] }
        let idWidth = units.map(\.id.count).max() ?? 0
        let typeWidth = units.map(\.type.count).max() ?? 0
        return units.enumerated().flatMap { index, unit in
            var line = "\(index + 1). \(pad(unit.id, idWidth))  \(pad(unit.type, typeWidth))  \(parameterText(unit))"
            if unit.isBypassed { line += "  [bypassed]" }
            let bands = EQBandText.lines(unit.bands, showsOrigin: unit.curve != nil).map { "     band " + $0 }
            return [line] + bands
        }
    }

    /// `gain_db=6 polarity=normal`, in schema order, values spelled as in a preset.
    private static func parameterText(_ unit: UnitSpec) -> String {
        let schema = UnitSchema.named(unit.type)
        let known = schema?.parameters.map(\.key) ?? []
        let keys = known.filter { unit.parameters[$0] != nil } + unit.parameters.keys.filter { !known.contains($0) }.sorted()
        var fields = keys.map { key in
            let value = unit.parameters[key] ?? 0
            let shown = schema?.parameter(key)?.displayValue(value) ?? NumberFormatting.plain(value)
            return "\(key)=\(shown)"
        }
        if let curve = unit.curve { fields.append("curve=\"\(curve)\"") }
        if let plugin = unit.lv2 { fields.insert(contentsOf: LV2UnitDecoder.reportFields(plugin), at: 0) }
        if unit.type == UnitSchema.eq.type { fields.append("bands=\(unit.bands.count)") }
        return fields.joined(separator: " ")
    }

    /// A labelled block: the label on the first line, the rest indented under the content column.
    /// Where a send into a binaural bus places its source: "at 20° right, 0° up, 1 m".
    private static func placement(_ position: BinauralPosition) -> String {
        let azimuth = position.azimuthDeg == 0 ? "0° (front)" : "\(NumberFormatting.plain(abs(position.azimuthDeg)))° \(position.azimuthDeg < 0 ? "left" : "right")"
        return "at \(azimuth), elevation \(NumberFormatting.plain(position.elevationDeg))°, \(NumberFormatting.plain(position.distanceM)) m"
    }

    private static func block(_ label: String, _ content: [String]) -> [String] {
        content.enumerated().map { index, line in row(index == 0 ? "  \(label)" : "", line) }
    }

    private static func row(_ label: String, _ content: String) -> String { pad(label, 12) + content }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func layout(_ channels: Int) -> String { channels == 1 ? "mono" : "stereo" }

    private static func onOff(_ flag: Bool) -> String { flag ? "ON" : "off" }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
