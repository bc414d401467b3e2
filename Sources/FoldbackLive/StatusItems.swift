// The parts of the live status line after its head, and fitting them to a terminal's width. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackDSP
import FoldbackEngine

/// The status line's parts in display order, each with how much it matters when the line must be cut.
struct StatusItems {
    /// One part: its text and its rank (lower is kept first; ties keep display order).
    struct Item {
        var text: String
        var rank: Double
    }

    /// Every part, in the order the line shows them.
    private(set) var all: [Item] = []

    init(meters: MeterSnapshot, extra: [String], song: String? = nil, attention: [String: BusAttention] = [:], xruns: Int = 0) {
        // Ranks: the song, alarms and extra (recording, players) first, then the buses that need attention (shown
        // first too), then the other buses in order, then the deepest gain reductions, then feedback units with
        // notches, then everything else.
        all.append(Item(text: "xruns \(xruns)", rank: xruns > 0 ? 0 : 50_000))   // an alarm once there are any
        if let song { all.append(Item(text: song, rank: 0)) }
        func busText(_ name: String, _ reading: MeterReading) -> String {
            let decibels = Decibels.decibels(fromLinearGain: reading.peak)
            let text = decibels.isFinite ? String(format: "%6.1f", max(decibels, -99.9)) : "  -inf"
            return "\(name) \(text) dBFS"
        }
        for bus in meters.buses.enumerated() {
            guard let trouble = attention[bus.element.name], !trouble.isEmpty else { continue }
            let text = "\(bus.element.name) \(trouble.word)"   // the word is the point: short, so three fit beside the song
            all.append(Item(text: text, rank: 2 + Double(bus.offset) / 1_000))
        }
        for bus in meters.buses.enumerated() where attention[bus.element.name]?.isEmpty ?? true {
            all.append(Item(text: busText(bus.element.name, bus.element.reading), rank: 1_000 + Double(bus.offset)))
        }
        var units: [(name: String, rows: [DynamicsReadout])] = []
        for readout in DynamicsReadout.readouts(meters) {
            if units.last?.name == readout.unit { units[units.count - 1].rows.append(readout) } else { units.append((readout.unit, [readout])) }
        }
        for unit in units {
            let text = "\(unit.name) " + unit.rows.map(\.text).joined(separator: "  ")
            let compression = unit.rows.first { $0.kind == .compression }?.decibels ?? 0
            all.append(Item(text: text, rank: 10_000 - Double(compression)))
        }
        for readout in FeedbackReadout.readouts(meters) {
            all.append(Item(text: "\(readout.unit) \(readout.shortText)", rank: readout.notches.isEmpty ? 30_000 : 20_000))
        }
        for output in LiveStatus.unitOutputs(meters) {
            all.append(Item(text: "\(output.unit) \(output.key) " + String(format: "%.2f", output.value), rank: 40_000))
        }
        let trips = meters.strips.filter { $0.reading.guardTrips > 0 }
        if !trips.isEmpty {
            all.append(Item(text: "NaN/Inf guard: " + trips.map { "\($0.name) \($0.reading.guardTrips)×" }.joined(separator: ", "), rank: 1))
        }
        all += extra.map { Item(text: $0, rank: 0) }
    }

    /// `head` and as many parts as fit in `width` columns, most important first, shown in display order, then
    /// `+N more` for the parts left out.
    func fitted(after head: String, width: Int) -> String {
        let separator = 2
        var used = head.count
        var kept = [Bool](repeating: false, count: all.count)
        let byRank = all.indices.sorted { (all[$0].rank, $0) < (all[$1].rank, $1) }
        for (position, index) in byRank.enumerated() {
            let cost = separator + all[index].text.count
            // Room for this part and for the "+N more" counting the parts after it (none after the last).
            let after = byRank.count - position - 1
            let reserve = after == 0 ? 0 : separator + "+\(after) more".count
            if used + cost + reserve <= width {
                kept[index] = true
                used += cost
            } else {
                break
            }
        }
        let shown = all.indices.filter { kept[$0] }.map { all[$0].text }
        let leftOut = all.count - shown.count
        return ([head] + shown + (leftOut > 0 ? ["+\(leftOut) more"] : [])).joined(separator: "  ")
    }
}

/// The terminal's size, as the kernel reports it for standard output.
enum TerminalSize {
    /// Columns of the terminal on standard output; 80 when it does not say.
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
