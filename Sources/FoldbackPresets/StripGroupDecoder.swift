// Validates `[[dca]]` and `[[mute_group]]` tables into StripGroupSpecs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// Reads the preset's DCA and mute groups.
enum StripGroupDecoder {
    /// The keys `[[dca]]` accepts; a `[[mute_group]]` takes them but `gain_db`.
    static let dcaKeys = ["name", "strips", ParameterTree.Key.gain, ParameterTree.Key.mute]

    /// The groups of `readers` (`[[dca]]` when `isDCA`, else `[[mute_group]]`), each naming known strips.
    static func decode(_ readers: [TableReader], isDCA: Bool, strips: [String]) -> [StripGroupSpec] {
        let table = isDCA ? "[[dca]]" : "[[mute_group]]"
        var names = NameRegistry(what: isDCA ? "DCA name" : "mute group name")
        var groups: [StripGroupSpec] = []
        for reader in readers {
            reader.checkKeys(allowed: isDCA ? dcaKeys : dcaKeys.filter { $0 != ParameterTree.Key.gain })
            let gainDB = isDCA ? reader.number(ParameterTree.Key.gain, in: BusDecoder.levelRange, default: 0) : 0
            let isMuted = reader.bool(ParameterTree.Key.mute, default: false)
            guard let name = reader.requiredString("name") else { continue }
            guard names.register(name, at: reader.valueLocation("name"), log: reader.log) else { continue }
            groups.append(StripGroupSpec(name: name, strips: members(reader, table: table, strips: strips), gainDB: gainDB, isMuted: isMuted, location: reader.location))
        }
        return groups
    }

    /// The strips a group's `strips` key names, each once and each known.
    private static func members(_ reader: TableReader, table: String, strips: [String]) -> [String] {
        let names = reader.nameList(
            "strips", what: "strip", known: strips, expected: "an array of strip names", allowsEmpty: true,
            unknownLabel: "unknown strip", knownLabel: "the strips are")
        guard let names else {
            reader.log.error("a \(table) needs 'strips', the strips it holds (e.g. strips = [\"kick\", \"snare\"])", at: reader.location)
            return []
        }
        return names
    }
}
