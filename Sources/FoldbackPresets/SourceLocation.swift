// Where something sits in a preset file: path, line and column. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A position in a preset file, as editors and compilers show it (`file:line:column`, 1-based).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file path as given to the loader.
    public var file: String
    /// The line, counting from 1; 0 means the file as a whole.
    public var line: Int
    /// The column in Unicode scalars, counting from 1.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, or just `file` when the location is the whole file (line 0),
    /// as for a file that cannot be read.
    public var description: String { line > 0 ? "\(file):\(line):\(column)" : file }
}
