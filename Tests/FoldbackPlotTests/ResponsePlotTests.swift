// Tests of the response plot: the drawn curve passes through the response the DSP computes, read back from the SVG's own axes.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackPlot
import Foundation
import XCTest

final class ResponsePlotTests: XCTestCase {
    private let bands = [
        EQBand(type: .lowShelf, frequency: 200, gainDB: 4),
        EQBand(type: .peak, frequency: 1200, gainDB: -5, q: 1.4),
        EQBand(type: .highShelf, frequency: 8000, gainDB: 3),
    ]

    /// At 1 kHz the path is within a pixel of the level `EQResponse` gives, on the axes the SVG labels.
    func testCurvePassesThroughTheResponseAtOneKilohertz() throws {
        for (sampleRate, outputGainDB) in [(48000.0, 0.0), (44100.0, -2.5), (96000.0, 6.0)] {
            let svg = ResponsePlot(title: "t", subtitle: "s", bands: bands, sampleRate: sampleRate, outputGainDB: outputGainDB).render()
            let expectedDB = EQResponse.magnitudeDB(bands: bands, sampleRate: sampleRate, frequency: 1000) + outputGainDB
            let x = try XCTUnwrap(labelX("1k", in: svg), "no 1k label")
            let y = try levelY(expectedDB, in: svg)
            let drawnY = try pathY(atX: x, in: svg)
            XCTAssertEqual(drawnY, y, accuracy: 1, "at \(sampleRate) Hz the curve is at y \(drawnY), the response (\(expectedDB) dB) at y \(y)")
        }
    }

    /// The dB axis covers the curve: its highest and lowest labels bracket the response's extremes.
    func testLevelAxisCoversTheResponse() throws {
        let svg = ResponsePlot(title: "t", subtitle: "s", bands: bands, sampleRate: 48000).render()
        let levels = dBLabels(in: svg).map(\.level)
        let frequencies = EQResponse.logSpacedFrequencies(from: 20, to: 20_000, count: 600)
        let response = EQResponse.magnitudeDB(bands: bands, sampleRate: 48000, frequencies: frequencies)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(levels.max()), try XCTUnwrap(response.max()))
        XCTAssertLessThanOrEqual(try XCTUnwrap(levels.min()), try XCTUnwrap(response.min()))
    }

    /// A title with XML's special characters stays well-formed.
    func testTitleIsEscaped() {
        let svg = ResponsePlot(title: "vox <eq> & \"more\"", subtitle: "", bands: bands, sampleRate: 48000).render()
        XCTAssertTrue(svg.contains("vox &lt;eq&gt; &amp; &quot;more&quot;"))
    }

    // MARK: Reading the SVG

    /// The x of the frequency label `text` along the bottom axis.
    private func labelX(_ text: String, in svg: String) -> Double? {
        matches(#"<text x="([-0-9.]+)" y="[-0-9.]+" font-size="11" text-anchor="middle">\#(text)</text>"#, in: svg).first.flatMap { Double($0[0]) }
    }

    /// The dB labels on the level axis and their y.
    private func dBLabels(in svg: String) -> [(level: Double, y: Double)] {
        matches(#"<text x="[-0-9.]+" y="([-0-9.]+)" font-size="11" text-anchor="end" dominant-baseline="middle">([-+0-9]+)</text>"#, in: svg)
            .compactMap { groups in Double(groups[0]).flatMap { y in Double(groups[1]).map { (level: $0, y: y) } } }
    }

    /// The y of `level` dB, interpolated between the labelled levels.
    private func levelY(_ level: Double, in svg: String) throws -> Double {
        let labels = dBLabels(in: svg).sorted { $0.level < $1.level }
        let low = try XCTUnwrap(labels.first), high = try XCTUnwrap(labels.last)
        XCTAssertGreaterThan(high.level, low.level)
        return low.y + (level - low.level) / (high.level - low.level) * (high.y - low.y)
    }

    /// The y of the response path at `x`, interpolated between its points.
    private func pathY(atX x: Double, in svg: String) throws -> Double {
        let d = try XCTUnwrap(matches(#"<path d="M ([^"]+)""#, in: svg).first?[0])
        let points = d.components(separatedBy: " L ").compactMap { pair -> (x: Double, y: Double)? in
            let parts = pair.split(separator: ",").compactMap { Double($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        XCTAssertGreaterThan(points.count, 100)
        let index = try XCTUnwrap(points.indices.dropLast().first { points[$0].x <= x && points[$0 + 1].x >= x })
        let (a, b) = (points[index], points[index + 1])
        return b.x == a.x ? a.y : a.y + (x - a.x) / (b.x - a.x) * (b.y - a.y)
    }

    private func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
        }
    }
}
