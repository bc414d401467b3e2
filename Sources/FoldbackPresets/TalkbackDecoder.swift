// Validates a strip's talkback keys (`talkback`, `talk_to`, `dim_db`) into a TalkbackSpec. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Reads the talkback keys of a `[[strip]]` table.
enum TalkbackDecoder {
    /// The talkback of the strip, or nil when it is not one (`talk_to` and `dim_db` alone are errors).
    static func decode(_ reader: TableReader, buses: StripDecoder.BusNames) -> TalkbackSpec? {
        let isTalkback = reader.bool("talkback", default: false)
        guard isTalkback else {
            for key in ["talk_to", "dim_db"] where reader.table[key] != nil {
                reader.log.error("'\(key)' belongs to a talkback strip; add talkback = true", at: reader.keyLocation(key))
            }
            return nil
        }
        let dimDB = reader.number("dim_db", in: -144...0, default: TalkbackSpec.defaultDimDB)
        for key in ["return", "send"] where reader.table[key] != nil {
            let what = key == "send" ? "[[strip.send]] tables" : "'return'"
            reader.log.error("a talkback strip talks to the buses 'talk_to' names, so it cannot have \(what)", at: reader.keyLocation(key))
        }
        let names = reader.nameList(
            "talk_to", what: "bus", known: buses.names, isComplete: buses.isComplete, expected: "a non-empty array of bus names",
            allowsEmpty: false, unknownLabel: "talkback to unknown bus", knownLabel: "the buses are")
        guard let names else {
            reader.log.error("a talkback strip needs 'talk_to', the buses it talks to (e.g. talk_to = [\"drums\", \"bass\"])", at: reader.location)
            return TalkbackSpec(busNames: [], dimDB: dimDB)
        }
        return TalkbackSpec(busNames: names, dimDB: dimDB)
    }
}
