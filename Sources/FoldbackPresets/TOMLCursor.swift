// Character-level reading of raw TOML text with line:column tracking, for SourceLocator. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Walks TOML text one Unicode scalar at a time, knowing the line and column, and skips the
/// lexical pieces that must not confuse a key scan: whitespace, comments and strings of all four kinds.
struct TOMLCursor {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    /// The current line, from 1.
    private(set) var line = 1
    /// The current column in Unicode scalars, from 1.
    private(set) var column = 1

    init(text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The scalar under the cursor, or nil at the end.
    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    /// Whether the text ahead starts with `prefix`.
    func hasPrefix(_ prefix: String) -> Bool {
        var offset = index
        for scalar in prefix.unicodeScalars {
            guard offset < scalars.count, scalars[offset] == scalar else { return false }
            offset += 1
        }
        return true
    }

    /// Moves past one scalar, keeping line and column.
    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count {
            guard let scalar = current else { return }
            index += 1
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
    }

    /// Skips spaces and tabs.
    mutating func skipSpaces() {
        while let scalar = current, scalar == " " || scalar == "\t" { advance() }
    }

    /// Skips spaces, tabs, newlines and comments (inside arrays and inline tables).
    mutating func skipBlank() {
        while let scalar = current {
            switch scalar {
            case " ", "\t", "\r", "\n": advance()
            case "#": skipToLineEnd()
            default: return
            }
        }
    }

    /// Moves to the newline ending this line (a comment, or recovery after something unexpected).
    mutating func skipToLineEnd() {
        while let scalar = current, scalar != "\n" { advance() }
    }

    /// Reads a bare key (`A-Z a-z 0-9 _ -`); empty if none is here.
    mutating func readBareKey() -> String {
        var key = String.UnicodeScalarView()
        while let scalar = current, TOMLPath.isBareKeyScalar(scalar) {
            key.append(scalar)
            advance()
        }
        return String(key)
    }

    /// Reads a string of any of the four TOML kinds at the cursor and returns its content
    /// (escapes decoded in basic strings). The cursor ends after the closing quote.
    mutating func readString() -> String {
        guard let quote = current else { return "" }
        let isBasic = quote == "\""
        let isMultiline = hasPrefix(isBasic ? "\"\"\"" : "'''")
        advance(isMultiline ? 3 : 1)
        var content = String.UnicodeScalarView()
        while let scalar = current {
            if scalar == quote {
                if !isMultiline {
                    advance()
                    break
                }
                if hasPrefix(isBasic ? "\"\"\"" : "'''") {
                    // Up to two quotes may end the content just before the closing delimiter.
                    var extra = 0
                    while extra < 2, hasPrefix(isBasic ? "\"\"\"\"" : "''''") {
                        content.append(quote)
                        advance()
                        extra += 1
                    }
                    advance(3)
                    break
                }
            }
            if !isMultiline, scalar == "\n" { break }  // unterminated: stop at the line end
            if isBasic, scalar == "\\" {
                advance()
                content.append(contentsOf: readEscape().unicodeScalars)
                continue
            }
            content.append(scalar)
            advance()
        }
        return String(content)
    }

    /// Decodes the escape after a backslash in a basic string.
    private mutating func readEscape() -> String {
        guard let scalar = current else { return "" }
        advance()
        switch scalar {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{8}"
        case "f": return "\u{C}"
        case "e": return "\u{1B}"
        case "u", "U":
            var hex = ""
            for _ in 0..<(scalar == "u" ? 4 : 8) {
                guard let digit = current, digit.properties.isASCIIHexDigit else { break }
                hex.unicodeScalars.append(digit)
                advance()
            }
            return UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map { String($0) } ?? ""
        case "\n", " ", "\t", "\r":
            // A line-ending backslash in a multi-line string trims the whitespace that follows.
            while let next = current, next == " " || next == "\t" || next == "\r" || next == "\n" { advance() }
            return ""
        default: return String(scalar)
        }
    }
}
