// Refuses TOML text that the bundled toml++ parser would abort on (a table header with no key), before it is parsed. Non-realtime.

/// A guard in front of TOMLKit's parser (toml++ 3.4).
///
/// toml++ checks its own invariants with `assert`, and one of them is reachable from user input: a table
/// header whose first bracket (or pair of brackets) is followed by anything but a key or `]` — `[[[strip]]`,
/// `[` at the end of a line, `[ #`, `[=` — ends the process with SIGABRT instead of a parse error. Foldback
/// reads presets into a running show (SIGHUP, `--watch`, OSC), so such text is refused here with a located
/// error, and toml++ never sees it.
///
/// The scan (on the ``TOMLCursor`` that ``SourceLocator`` reads with) follows toml++'s own statement loop: a header can only start a line (after horizontal
/// whitespace, Unicode spaces and a byte-order mark included), outside a multi-line string and outside a
/// value that spans lines (an array, or an inline table). Strings and comments are skipped the way toml++
/// reads them, so brackets inside them never count. Where the scan and the parser could disagree on
/// malformed text, the parser has already stopped with an error of its own before that line.
enum TOMLHeaderGuard {
    /// The first header that toml++ cannot parse safely, as a diagnostic in `path`, or nil when there is none.
    static func firstUnsafeHeader(in text: String, path: String) -> PresetDiagnostic? {
        var scanner = Scanner(text)
        guard let (line, column, found) = scanner.findUnsafeHeader() else { return nil }
        let what = found.map { "'\(Self.printable($0))'" } ?? "the end of the line"
        return PresetDiagnostic(
            location: SourceLocation(file: path, line: line, column: column),
            message: "TOML syntax error: a table header needs a name after its '[' or '[['; found \(what) (a stray bracket? write [strip] or [[strip]])"
        )
    }

    private static func printable(_ scalar: Unicode.Scalar) -> String {
        scalar.value < 0x20 || scalar.value == 0x7F ? "U+" + String(scalar.value, radix: 16, uppercase: true) : String(scalar)
    }

    /// A single pass over the document on a ``TOMLCursor``, which counts lines and columns as toml++ does.
    private struct Scanner {
        var cursor: TOMLCursor

        init(_ text: String) { cursor = TOMLCursor(text: text) }

        /// Returns the line, column and scalar (nil at end of line or file) where a header lacks its key.
        mutating func findUnsafeHeader() -> (Int, Int, Unicode.Scalar?)? {
            while let scalar = skipHorizontalWhitespace() {
                switch scalar {
                case "[":
                    if let unsafe = checkHeader() { return unsafe }
                    skipLine()
                case "\n", "#":
                    skipLine()
                default:
                    skipStatement()
                }
            }
            return nil
        }

        /// At a header's first '[': the position after one or two brackets must hold a key, a quote or ']'.
        mutating func checkHeader() -> (Int, Int, Unicode.Scalar?)? {
            cursor.advance()
            let before = cursor.column
            skipHorizontalWhitespace()
            let spaced = cursor.column != before
            if cursor.current == "[" {
                if spaced { return nil }  // toml++ reports "[ [" as an error of its own
                cursor.advance()
                skipHorizontalWhitespace()
            }
            guard let next = cursor.current else { return nil }
            if next == "\n" || next == "\r" { return (cursor.line, cursor.column, nil) }
            return Self.startsKey(next) || next == "]" ? nil : (cursor.line, cursor.column, next)
        }

        /// Skips spaces, tabs and the other horizontal whitespace toml++ accepts; returns what follows.
        @discardableResult
        mutating func skipHorizontalWhitespace() -> Unicode.Scalar? {
            while let scalar = cursor.current, scalar == " " || scalar == "\t" || Self.isUnicodeSpace(scalar) {
                cursor.advance()
            }
            return cursor.current
        }

        mutating func skipLine() {
            cursor.skipToLineEnd()
            cursor.advance()
        }

        /// A key/value statement: the key, then a value that may span lines inside brackets or a multi-line
        /// string; ends after the line break that follows it at bracket depth zero.
        mutating func skipStatement() {
            var depth = 0
            while let scalar = cursor.current {
                switch scalar {
                case "\"", "'":
                    _ = cursor.readString()
                case "#":
                    cursor.skipToLineEnd()
                case "[", "{":
                    depth += 1
                    cursor.advance()
                case "]", "}":
                    depth = max(depth - 1, 0)
                    cursor.advance()
                case "\n":
                    cursor.advance()
                    if depth == 0 { return }
                default:
                    cursor.advance()
                }
            }
        }

        static func startsKey(_ scalar: Unicode.Scalar) -> Bool {
            TOMLPath.isBareKeyScalar(scalar) || scalar == "\"" || scalar == "'"
        }

        /// The non-ASCII horizontal whitespace toml++ skips (Unicode Zs, U+180E and the byte-order mark).
        static func isUnicodeSpace(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar.value >= 0xA0 else { return false }
            return scalar.properties.generalCategory == .spaceSeparator || scalar.value == 0x180E || scalar.value == 0xFEFF
        }
    }
}
