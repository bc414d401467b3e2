// Draws an EQ's magnitude response as an SVG document (log frequency 20 Hz–20 kHz, dB axis, grid, labels). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP
import Foundation

/// An SVG picture of what a set of EQ bands does, for `foldback curves NAME --svg`, `foldback check --eq-svg`
/// and any page that shows an EQ.
///
/// The response is computed from the digital coefficients (``EQResponse``), so it is exactly what the
/// unit does at the given sample rate. Each enabled band is marked with its number at its frequency.
public struct ResponsePlot: Sendable {
    /// The heading, and the smaller line under it.
    public var title: String
    public var subtitle: String
    /// The bands whose combined response is drawn.
    public var bands: [EQBand]
    /// The sample rate the digital filters run at, Hz.
    public var sampleRate: Double
    /// Gain added after the bands, dB.
    public var outputGainDB: Double

    /// A plot of `bands` at `sampleRate` Hz plus `outputGainDB` dB.
    public init(title: String, subtitle: String, bands: [EQBand], sampleRate: Double, outputGainDB: Double = 0) {
        self.title = title
        self.subtitle = subtitle
        self.bands = bands
        self.sampleRate = sampleRate
        self.outputGainDB = outputGainDB
    }

    static let width = 900.0
    static let height = 500.0
    static let left = 70.0, right = 30.0, top = 70.0, bottom = 60.0
    static let lowFrequency = 20.0, highFrequency = 20_000.0
    /// The ISO octave centres labelled along the frequency axis, with the axis ends.
    static let labels: [(Double, String)] = [
        (20, "20"), (31.5, "31.5"), (63, "63"), (125, "125"), (250, "250"), (500, "500"), (1000, "1k"),
        (2000, "2k"), (4000, "4k"), (8000, "8k"), (16_000, "16k"), (20_000, "20k"),
    ]

    /// The SVG document.
    public func render() -> String {
        let frequencies = EQResponse.logSpacedFrequencies(from: Self.lowFrequency, to: Self.highFrequency, count: 600)
        let response = EQResponse.magnitudeDB(bands: bands, sampleRate: sampleRate, frequencies: frequencies, outputGainDB: outputGainDB)
        let finite = response.filter(\.isFinite)
        let highest = min(48, max(12, (((finite.max() ?? 0) + 1.5) / 6).rounded(.up) * 6))
        let lowest = max(-48, min(-12, (((finite.min() ?? 0) - 1.5) / 6).rounded(.down) * 6))
        let axis = Axis(lowDB: lowest, highDB: highest)
        var svg = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(Self.width))" height="\#(Int(Self.height))" "#
                + #"viewBox="0 0 \#(Int(Self.width)) \#(Int(Self.height))" font-family="sans-serif">"#,
            #"<rect width="100%" height="100%" fill="white"/>"#,
            #"<text x="\#(Self.left)" y="28" font-size="18" font-weight="bold">\#(Self.escaped(title))</text>"#,
            #"<text x="\#(Self.left)" y="50" font-size="12" fill="rgb(68,68,68)">\#(Self.escaped(subtitle))</text>"#,
            #"<clipPath id="plot"><rect x="\#(Self.left)" y="\#(Self.top)" width="\#(axis.plotWidth)" height="\#(axis.plotHeight)"/></clipPath>"#,
        ]
        svg += gridLines(axis)
        let points = zip(frequencies, response).map { frequency, gain in
            "\(Self.number(axis.x(frequency))),\(Self.number(axis.y(gain.isFinite ? gain : axis.lowDB - 10)))"
        }
        svg.append(#"<path d="M \#(points.joined(separator: " L "))" fill="none" stroke="rgb(192,57,43)" stroke-width="2.5" clip-path="url(#plot)"/>"#)
        svg += bandMarkers(axis)
        svg.append(#"<rect x="\#(Self.left)" y="\#(Self.top)" width="\#(axis.plotWidth)" height="\#(axis.plotHeight)" fill="none" stroke="rgb(51,51,51)"/>"#)
        svg.append(#"<text x="\#(Self.left + axis.plotWidth / 2)" y="\#(Self.height - 15)" font-size="13" text-anchor="middle">Frequency (Hz)</text>"#)
        let middle = Self.top + axis.plotHeight / 2
        svg.append(#"<text x="18" y="\#(middle)" font-size="13" text-anchor="middle" transform="rotate(-90 18 \#(middle))">Gain (dB)</text>"#)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// Decade lines (solid), other 1–9 × decade lines (faint), octave labels; dB lines with 0 dB emphasised.
    private func gridLines(_ axis: Axis) -> [String] {
        var lines: [String] = []
        var decade = 10.0
        while decade < Self.highFrequency {
            for multiple in 1...9 {
                let frequency = decade * Double(multiple)
                guard frequency > Self.lowFrequency && frequency < Self.highFrequency else { continue }
                let x = Self.number(axis.x(frequency))
                let style = multiple == 1 ? #"stroke="rgb(153,153,153)""# : #"stroke="rgb(227,227,227)""#
                lines.append(#"<line x1="\#(x)" y1="\#(Self.top)" x2="\#(x)" y2="\#(Self.top + axis.plotHeight)" \#(style)/>"#)
            }
            decade *= 10
        }
        for (frequency, label) in Self.labels {
            let x = Self.number(axis.x(frequency))
            let isOctave = frequency > Self.lowFrequency && frequency < Self.highFrequency && frequency.truncatingRemainder(dividingBy: 1000) != 0
            if isOctave && frequency != 1000 {
                lines.append(#"<line x1="\#(x)" y1="\#(Self.top)" x2="\#(x)" y2="\#(Self.top + axis.plotHeight)" stroke="rgb(187,187,187)" stroke-dasharray="3,3"/>"#)
            }
            lines.append(#"<text x="\#(x)" y="\#(Self.top + axis.plotHeight + 18)" font-size="11" text-anchor="middle">\#(label)</text>"#)
        }
        var level = axis.lowDB
        while level <= axis.highDB + 0.001 {
            let y = Self.number(axis.y(level))
            let style = level == 0 ? #"stroke="rgb(51,51,51)" stroke-width="1.2""# : #"stroke="rgb(221,221,221)""#
            lines.append(#"<line x1="\#(Self.left)" y1="\#(y)" x2="\#(Self.left + axis.plotWidth)" y2="\#(y)" \#(style)/>"#)
            let text = level > 0 ? "+\(Int(level))" : "\(Int(level))"
            lines.append(#"<text x="\#(Self.left - 8)" y="\#(y)" font-size="11" text-anchor="end" dominant-baseline="middle">\#(text)</text>"#)
            level += axis.stepDB
        }
        return lines
    }

    /// A numbered dot on the curve at each enabled band's frequency.
    private func bandMarkers(_ axis: Axis) -> [String] {
        bands.enumerated().compactMap { index, band in
            guard band.isEnabled, band.frequency >= Self.lowFrequency, band.frequency <= Self.highFrequency else { return nil }
            let gain = EQResponse.magnitudeDB(bands: bands, sampleRate: sampleRate, frequency: band.frequency) + outputGainDB
            let x = Self.number(axis.x(band.frequency))
            let y = axis.y(gain.isFinite ? min(max(gain, axis.lowDB), axis.highDB) : axis.lowDB)
            return #"<circle cx="\#(x)" cy="\#(Self.number(y))" r="4" fill="rgb(44,62,80)"/>"#
                + #"<text x="\#(x)" y="\#(Self.number(y - 9))" font-size="10" text-anchor="middle" fill="rgb(44,62,80)">\#(index + 1)</text>"#
        }
    }

    /// Maps frequency and level to picture coordinates.
    private struct Axis {
        var lowDB: Double
        var highDB: Double
        var plotWidth: Double { ResponsePlot.width - ResponsePlot.left - ResponsePlot.right }
        var plotHeight: Double { ResponsePlot.height - ResponsePlot.top - ResponsePlot.bottom }
        var stepDB: Double { highDB - lowDB > 36 ? 6 : 3 }

        func x(_ frequency: Double) -> Double {
            let span = log10(ResponsePlot.highFrequency / ResponsePlot.lowFrequency)
            return ResponsePlot.left + log10(frequency / ResponsePlot.lowFrequency) / span * plotWidth
        }

        func y(_ level: Double) -> Double {
            ResponsePlot.top + (highDB - level) / (highDB - lowDB) * plotHeight
        }
    }

    private static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Text with XML's special characters escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
