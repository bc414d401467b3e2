// An OSC message as plain Swift values: address and typed arguments (i, f, s). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// One OSC argument of the types Foldback reads and writes.
public enum OSCArgument: Sendable, Hashable, CustomStringConvertible {
    /// `i`: a 32-bit integer.
    case int(Int32)
    /// `f`: a 32-bit float.
    case float(Float)
    /// `s`: a string.
    case string(String)
    /// `b`: a blob of bytes (the X32 surface's meter frames).
    case blob([UInt8])

    /// The OSC type tag (`i`, `f`, `s` or `b`).
    public var typeTag: Character {
        switch self {
        case .int: return "i"
        case .float: return "f"
        case .string: return "s"
        case .blob: return "b"
        }
    }

    /// The value as a number (`i` or `f`), or nil for a string or blob.
    public var number: Float? {
        switch self {
        case let .int(value): return Float(value)
        case let .float(value): return value
        case .string, .blob: return nil
        }
    }

    /// The value as a string, or nil for a number.
    public var text: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    public var description: String {
        switch self {
        case let .int(value): return "\(value)"
        case let .float(value): return "\(value)"
        case let .string(value): return "\"\(value)\""
        case let .blob(bytes): return "<\(bytes.count) bytes>"
        }
    }
}

/// An OSC message: an address pattern and its arguments.
public struct OSCMessage: Sendable, Hashable, CustomStringConvertible {
    /// The address, e.g. `/foldback/strip/vox/gain_db`.
    public var path: String
    /// The arguments, in order.
    public var arguments: [OSCArgument]

    /// A message to `path` with `arguments`.
    public init(_ path: String, _ arguments: [OSCArgument] = []) {
        self.path = path
        self.arguments = arguments
    }

    /// The type tags, e.g. `fs` (empty for no arguments).
    public var typeTags: String { String(arguments.map(\.typeTag)) }

    public var description: String {
        ([path] + arguments.map(\.description)).joined(separator: " ")
    }
}
