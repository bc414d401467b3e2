// A key path into a TOML document (`strip[1].unit[0].gain_db`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A path of keys and array indices from the document root, printed as `strip[1].unit[0].gain_db`.
/// Keys that are not bare (`[A-Za-z0-9_-]+`) print quoted, so every path has one spelling.
package struct TOMLPath: Hashable, Sendable, CustomStringConvertible {
    /// One step: a table key or an array index.
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    var components: [Component]

    /// The document root.
    static let root = TOMLPath(components: [])

    /// This path followed by a table key.
    func appending(_ key: String) -> TOMLPath { TOMLPath(components: components + [.key(key)]) }

    /// This path followed by an array index.
    func appending(_ index: Int) -> TOMLPath { TOMLPath(components: components + [.index(index)]) }

    /// The path one step up, or nil at the root.
    var parent: TOMLPath? {
        components.isEmpty ? nil : TOMLPath(components: Array(components.dropLast()))
    }

    /// The last key of the path, if it ends in a key.
    var lastKey: String? {
        if case .key(let key) = components.last { return key }
        return nil
    }

    package var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += Self.isBare(key) ? key : "\"\(key)\""
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// Whether `key` can be written without quotes.
    static func isBare(_ key: String) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy(isBareKeyScalar)
    }

    /// `A-Z a-z 0-9 _ -`, the characters of a bare key (and of Foldback names).
    package static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": return true
        default: return false
        }
    }
}
