// Maps TOML key paths (`strip[1].unit[0].gain_db`) to line:column by scanning the raw text. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Finds where keys, values and tables sit in a TOML file. TOMLKit parses; this only locates.
///
/// It follows `[table]` and `[[array.of.tables]]` headers (counting the elements of each array per
/// parent), `key = value` lines, dotted and quoted keys, and keys inside inline tables and arrays,
/// while skipping comments and strings. Paths print like ``TOMLPath``: `bus[0].connect[1]`.
/// Only the first occurrence of a path is kept (TOML forbids redefinition anyway).
struct SourceLocator {
    /// Where one path was found.
    struct Entry {
        /// The key (for a table from a header: its opening bracket; for an array element: the element).
        var key: SourceLocation
        /// The value after `=`, or the element itself, if the path has a value.
        var value: SourceLocation?
    }

    /// The file named in every location.
    let file: String
    private(set) var entries: [String: Entry] = [:]

    /// Scans `text` once; `file` is used in the locations returned.
    init(text: String, file: String) {
        self.file = file
        var scan = Scan(cursor: TOMLCursor(text: text), file: file)
        scan.document()
        entries = scan.entries
    }

    /// Where the key at `path` is written, if found.
    func keyLocation(_ path: String) -> SourceLocation? { entries[path]?.key }

    /// Where the value at `path` starts, if found.
    func valueLocation(_ path: String) -> SourceLocation? { entries[path]?.value }

    /// The key of `path`, or of its nearest located ancestor; the file start at worst.
    func location(of path: TOMLPath) -> SourceLocation {
        var probe: TOMLPath? = path
        while let current = probe {
            if let entry = entries[current.description] { return entry.key }
            probe = current.parent
        }
        return SourceLocation(file: file, line: 1, column: 1)
    }

    /// The value of `path` if located, else the best location for its key.
    func valueLocation(of path: TOMLPath) -> SourceLocation {
        entries[path.description]?.value ?? location(of: path)
    }
}

/// The single pass behind ``SourceLocator``.
private struct Scan {
    var cursor: TOMLCursor
    let file: String
    var entries: [String: SourceLocator.Entry] = [:]
    /// How many `[[…]]` headers each resolved array path has seen so far.
    var arrayTableCounts: [String: Int] = [:]
    /// Keys nested deeper are not located (their nearest located ancestor stands in): no Foldback file
    /// nests past a handful of levels, and a 10,000-deep dotted key would otherwise cost quadratic time.
    static let maximumDepth = 32
    /// The table that `key = value` lines belong to.
    var table = TOMLPath.root

    init(cursor: TOMLCursor, file: String) {
        self.cursor = cursor
        self.file = file
    }

    var here: SourceLocation { SourceLocation(file: file, line: cursor.line, column: cursor.column) }

    mutating func record(_ path: TOMLPath, key: SourceLocation, value: SourceLocation? = nil) {
        guard path.components.count <= Self.maximumDepth else { return }
        let name = path.description
        if var entry = entries[name] {
            if entry.value == nil, let value {
                entry.value = value
                entries[name] = entry
            }
        } else {
            entries[name] = .init(key: key, value: value)
        }
    }

    mutating func document() {
        while let scalar = cursor.current {
            switch scalar {
            case " ", "\t", "\r", "\n":
                cursor.advance()
                continue
            case "#": cursor.skipToLineEnd()
            case "[": header()
            default: keyValue(in: table)
            }
            // Past a header or a key-value pair, anything left on the line but a comment is
            // malformed (TOMLKit reports it); skip it.
            cursor.skipSpaces()
            if cursor.current != "\n" { cursor.skipToLineEnd() }
        }
    }

    /// `[a.b]` or `[[a.b]]`: resolves the path through earlier arrays of tables and makes it current.
    mutating func header() {
        let start = here
        let isArray = cursor.hasPrefix("[[")
        cursor.advance(isArray ? 2 : 1)
        let keys = dottedKeys()
        cursor.skipSpaces()
        guard !keys.isEmpty, cursor.hasPrefix(isArray ? "]]" : "]") else { return }
        cursor.advance(isArray ? 2 : 1)
        var path = TOMLPath.root
        for (offset, (key, location)) in keys.prefix(Self.maximumDepth).enumerated() {
            path = path.appending(key)
            record(path, key: location)
            let isLast = offset == min(keys.count, Self.maximumDepth) - 1
            if isLast, isArray {
                let count = arrayTableCounts[path.description, default: 0]
                arrayTableCounts[path.description] = count + 1
                path = path.appending(count)
                record(path, key: start)
            } else if !isLast, let count = arrayTableCounts[path.description] {
                path = path.appending(count - 1)
            }
        }
        table = path
    }

    /// `a."b c".d`: each key with where it starts; empty if no key is here.
    mutating func dottedKeys() -> [(String, SourceLocation)] {
        var keys: [(String, SourceLocation)] = []
        while true {
            cursor.skipSpaces()
            let location = here
            let key: String
            switch cursor.current {
            case "\"", "'": key = cursor.readString()
            default:
                key = cursor.readBareKey()
                if key.isEmpty { return keys }
            }
            keys.append((key, location))
            cursor.skipSpaces()
            guard cursor.current == "." else { return keys }
            cursor.advance()
        }
    }

    /// `key = value` inside `table`; records every prefix of a dotted key.
    mutating func keyValue(in table: TOMLPath) {
        let keys = dottedKeys()
        cursor.skipSpaces()
        guard !keys.isEmpty, cursor.current == "=" else { return }
        cursor.advance()
        cursor.skipSpaces()
        var path = table
        for (key, location) in keys.prefix(Self.maximumDepth) {
            path = path.appending(key)
            record(path, key: location)
        }
        value(at: path)
    }

    /// A value of any kind; arrays and inline tables record their elements and keys.
    mutating func value(at path: TOMLPath) {
        let start = here
        record(path, key: start, value: start)
        switch cursor.current {
        case "\"", "'":
            _ = cursor.readString()
        case "[":
            cursor.advance()
            var index = 0
            while true {
                cursor.skipBlank()
                guard let scalar = cursor.current, scalar != "]" else { break }
                value(at: path.appending(index))
                index += 1
                cursor.skipBlank()
                guard cursor.current == "," else { break }
                cursor.advance()
            }
            if cursor.current == "]" { cursor.advance() }
        case "{":
            cursor.advance()
            while true {
                cursor.skipBlank()
                guard let scalar = cursor.current, scalar != "}" else { break }
                keyValue(in: path)
                cursor.skipBlank()
                guard cursor.current == "," else { break }
                cursor.advance()
            }
            if cursor.current == "}" { cursor.advance() }
        default:
            while let scalar = cursor.current, !" \t\r\n,]}#".unicodeScalars.contains(scalar) { cursor.advance() }
        }
    }
}
