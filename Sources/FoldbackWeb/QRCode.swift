// QR codes of the musicians' links (libqrencode): half-block text for a terminal, SVG for the engineer's page. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CQRencode

/// A QR code's modules (true = dark), encoded by libqrencode at error-correction level M.
public struct QRCode: Sendable, Equatable {
    /// Modules per side.
    public let width: Int
    /// Row by row, `width × width`.
    public let modules: [Bool]
    /// Light modules around the code (the standard asks for 4; 2 is enough for phone cameras on a screen).
    public static let quietZone = 2

    /// The code of `text` (8-bit mode), or nil when libqrencode cannot encode it (too long: over ~2 kB).
    public init?(_ text: String) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        width = Int(code.pointee.width)
        modules = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at `row`, `column` is dark (outside the code, in the quiet zone, it is light).
    public func isDark(row: Int, column: Int) -> Bool {
        (0..<width).contains(row) && (0..<width).contains(column) && modules[row * width + column]
    }

    /// The code as terminal lines: two modules per character (`▀` with black/white ANSI colours), so it
    /// scans on dark and light terminals alike.
    public func terminalLines() -> [String] {
        let range = -Self.quietZone..<(width + Self.quietZone)
        return stride(from: range.lowerBound, to: range.upperBound, by: 2).map { row in
            range.map { column -> String in
                let top = isDark(row: row, column: column) ? 30 : 97
                let bottom = isDark(row: row + 1, column: column) ? 40 : 107
                return "\u{1B}[\(top);\(bottom)m▀"
            }.joined() + "\u{1B}[0m"
        }
    }

    /// The code as an SVG image, one unit per module, dark modules as one path.
    public func svg() -> String {
        let side = width + 2 * Self.quietZone
        var path = ""
        for row in 0..<width {
            for column in 0..<width where modules[row * width + column] {
                path += "M\(column + Self.quietZone) \(row + Self.quietZone)h1v1h-1z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}
