// The one-line live status: DSP load, xruns and bus peaks, redrawn in place on a terminal. Non-realtime.
import Foundation
import FoldbackDSP
import FoldbackEngine

/// Formats and prints the live status line.
struct LiveStatus {
    /// Whether standard output is a terminal (redraw in place) or a log (a line every few seconds).
    let isTerminal: Bool

    /// Main-loop ticks (100 ms) between status lines.
    var ticksPerLine: Int { isTerminal ? 1 : 50 }

    /// One status line.
    static func line(load: Double, xruns: Int, buses: [(name: String, reading: MeterReading)]) -> String {
        let levels = buses.map { bus -> String in
            let decibels = Decibels.decibels(fromLinearGain: bus.reading.peak)
            let text = decibels.isFinite ? String(format: "%6.1f", max(decibels, -99.9)) : "  -inf"
            return "\(bus.name) \(text) dBFS"
        }
        return String(format: "DSP %5.1f%%  xruns %d  ", load, xruns) + levels.joined(separator: "  ")
    }

    func show(load: Double, xruns: Int, buses: [(name: String, reading: MeterReading)]) {
        let text = Self.line(load: load, xruns: xruns, buses: buses)
        if isTerminal {
            print("\r\u{1B}[2K" + text, terminator: "")
        } else {
            print(text)
        }
        fflush(nil)   // flushes every output stream; `stdout` itself is not concurrency-safe to name
    }

    /// Ends an in-place status line.
    func finish() {
        if isTerminal { print("") }
    }
}
