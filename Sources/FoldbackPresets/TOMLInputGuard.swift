// Refuses TOML text that the bundled toml++ parser would abort on (a header with no key, '}' where an array wants a value). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A guard in front of TOMLKit's parser (toml++ 3.4).
///
/// toml++ checks its own invariants with `assert`, and two of them are reachable from user input; each ends
/// the process with SIGABRT instead of a parse error:
/// - a table header whose first bracket (or pair of brackets) is followed by anything but a key or `]`:
///   `[[[strip]]`, `[` at the end of a line, `[ #`, `[=`;
/// - a `}` where an array expects a value: `[ }`, `[1, }`, even after line breaks and comments.
///
/// Foldback reads presets into a running show (SIGHUP, `--watch`, OSC), so such text is refused here with a
/// located error, and toml++ never sees it. The scan (on the ``TOMLCursor`` that ``SourceLocator`` reads
/// with) follows toml++'s own statement loop: a header can only start a line (after horizontal whitespace,
/// Unicode spaces and a byte-order mark included), outside a multi-line string and outside a value that
/// spans lines; inside values it keeps a stack of open arrays and inline tables. Strings and comments are
/// skipped the way toml++ reads them, so brackets inside them never count. Where the scan and the parser
/// could disagree on malformed text, the parser has already stopped with an error of its own before.
/// `foldback-fuzz` and a coverage-guided libFuzzer run of toml++ behind this scan found no other abort.
enum TOMLInputGuard {
    /// The first place toml++ cannot parse safely, as a diagnostic in `path`, or nil when there is none.
    static func firstUnsafePlace(in text: String, path: String) -> PresetDiagnostic? {
        var scanner = Scanner(text)
        guard let unsafe = scanner.findUnsafePlace() else { return nil }
        let message: String
        switch unsafe.kind {
        case .header(let found):
            let what = found.map { "'\(Self.printable($0))'" } ?? "the end of the line"
            message = "a table header needs a name after its '[' or '[['; found \(what) (a stray bracket? write [strip] or [[strip]])"
        case .arrayValue:
            message = "'}' where the array expects a value or ']' (a stray brace, or ']' and '}' swapped?)"
        }
        return PresetDiagnostic(
            location: SourceLocation(file: path, line: unsafe.line, column: unsafe.column), message: "TOML syntax error: " + message)
    }

    private static func printable(_ scalar: Unicode.Scalar) -> String {
        scalar.value < 0x20 || scalar.value == 0x7F ? "U+" + String(scalar.value, radix: 16, uppercase: true) : String(scalar)
    }

    /// What the scan found, and where.
    struct Unsafe: Equatable {
        enum Kind: Equatable {
            /// A header lacks its key: the scalar found instead (nil at the end of the line).
            case header(found: Unicode.Scalar?)
            /// A `}` at an array's value position.
            case arrayValue
        }

        var kind: Kind
        var line: Int
        var column: Int
    }

    /// A single pass over the document on a ``TOMLCursor``, which counts lines and columns as toml++ does.
    private struct Scanner {
        var cursor: TOMLCursor

        init(_ text: String) { cursor = TOMLCursor(text: text) }

        mutating func findUnsafePlace() -> Unsafe? {
            while let scalar = skipHorizontalWhitespace() {
                switch scalar {
                case "[":
                    if let unsafe = checkHeader() { return unsafe }
                    skipLine()
                case "\n", "#":
                    skipLine()
                default:
                    if let unsafe = checkStatement() { return unsafe }
                }
            }
            return nil
        }

        /// At a header's first '[': the position after one or two brackets must hold a key, a quote or ']'.
        mutating func checkHeader() -> Unsafe? {
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
            if next == "\n" || next == "\r" { return Unsafe(kind: .header(found: nil), line: cursor.line, column: cursor.column) }
            return Self.startsKey(next) || next == "]" ? nil : Unsafe(kind: .header(found: next), line: cursor.line, column: cursor.column)
        }

        /// A key/value statement: the key, then a value that may span lines inside brackets or a multi-line
        /// string; ends after the line break that follows it with nothing left open. Inside an array, a '}'
        /// right after '[' or ',' (blanks and comments between) is where toml++ would abort.
        mutating func checkStatement() -> Unsafe? {
            var open: [Unicode.Scalar] = []
            var last: Unicode.Scalar?
            while let scalar = cursor.current {
                switch scalar {
                case "\"", "'":
                    _ = cursor.readString()
                    last = scalar
                    continue
                case "#":
                    cursor.skipToLineEnd()
                    continue
                case "\n":
                    cursor.advance()
                    if open.isEmpty { return nil }
                    continue
                case " ", "\t", "\r":
                    cursor.advance()
                    continue
                case "[", "{":
                    open.append(scalar)
                case "]", "}":
                    if scalar == "}", open.last == "[", last == "[" || last == "," {
                        return Unsafe(kind: .arrayValue, line: cursor.line, column: cursor.column)
                    }
                    if !open.isEmpty { open.removeLast() }
                default:
                    break
                }
                last = scalar
                cursor.advance()
            }
            return nil
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
