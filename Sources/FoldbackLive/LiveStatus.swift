// The one-line live status: DSP load, xruns and bus peaks, redrawn in place on a terminal. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackDSP
package import FoldbackEngine

/// Formats and prints the live status line.
package struct LiveStatus {
    /// Whether standard output is a terminal (redraw in place) or a log (a line every few seconds).
    package let isTerminal: Bool

    /// Main-loop ticks (100 ms) between status lines.
    package var ticksPerLine: Int { isTerminal ? 1 : 50 }

    /// One status line: load, xruns (first when there are any), each bus's peak, then each compressor's compression (and expansion where any),
    /// feedback notches, plugin outputs, and NaN/Inf guard trips where any. With a `width`, the line fits it: what
    /// matters most is kept (guard trips and `extra`, then the buses in order, then the deepest gain reductions,
    /// then the rest) and what does not fit is counted as `+N more` (`--meters` shows everything).
    /// `song` (a setlist's `song 2/5 'name'`) comes right after the head, then the buses that need `attention`.
    package static func line(
        load: Double, xruns: Int, meters: MeterSnapshot, extra: [String] = [], width: Int? = nil, song: String? = nil,
        attention: [String: BusAttention] = [:]
    ) -> String {
        let head = String(format: "DSP %3.0f%%", load)
        let items = StatusItems(meters: meters, extra: extra, song: song, attention: attention, xruns: xruns)
        guard let width else { return ([head] + items.all.map(\.text)).joined(separator: "  ") }
        return items.fitted(after: head, width: width)
    }

    /// Every unit reading other than a compressor's gain reduction and a feedback unit's notches (an LV2
    /// plugin's control outputs), labelled `strip/unit`.
    package static func unitOutputs(_ meters: MeterSnapshot) -> [(unit: String, key: String, value: Float)] {
        meters.units.flatMap { unit in
            unit.readings.filter { !DynamicsReadout.isDynamicsKey($0.key) && !FeedbackReadout.isFeedbackKey($0.key) }.map { ("\(unit.strip)/\(unit.unit)", $0.key, $0.value) }
        }
    }

    /// Draws the status line; on a terminal it fits the terminal's width.
    package func show(load: Double, xruns: Int, meters: MeterSnapshot, extra: [String] = [], song: String? = nil, attention: [String: BusAttention] = [:]) {
        draw(Self.line(
            load: load, xruns: xruns, meters: meters, extra: extra, width: isTerminal ? TerminalSize.columns() - 1 : nil, song: song, attention: attention))
    }

    /// Shows `text` as the status line (in place on a terminal, else as a new line) through the screen writer,
    /// so a terminal that stops reading drops lines instead of stalling the main loop.
    package func draw(_ text: String) {
        ScreenWriter.standardOutput.show(isTerminal ? "\r\u{1B}[2K" + text : text + "\n")
    }

    /// Ends an in-place status line (waits at most a second for a terminal that stopped reading).
    package func finish() {
        if isTerminal { ScreenWriter.standardOutput.showAndWait("\n", timeout: 1) }
    }
}
