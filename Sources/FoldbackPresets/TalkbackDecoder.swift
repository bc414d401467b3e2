// Validates a strip's talkback keys (`talkback`, `talk_to`, `dim_db`) into a TalkbackSpec. Non-realtime.

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
        guard let value = reader.table["talk_to"] else {
            reader.log.error("a talkback strip needs 'talk_to', the buses it talks to (e.g. talk_to = [\"drums\", \"bass\"])", at: reader.location)
            return TalkbackSpec(busNames: [], dimDB: dimDB)
        }
        guard let list = value.array, list.count > 0 else {
            reader.reportType("talk_to", expected: "a non-empty array of bus names", found: value)
            return TalkbackSpec(busNames: [], dimDB: dimDB)
        }
        var names: [String] = []
        for index in 0..<list.count {
            let location = reader.locator.valueLocation(of: reader.path.appending("talk_to").appending(index))
            guard let name = list[index].string else {
                reader.log.error("'talk_to' entry: expected a bus name, found \(TableReader.describe(list[index]))", at: location)
                continue
            }
            if buses.isComplete, !buses.names.contains(name) {
                let hint = Suggestion.hint(for: name, in: buses.names, fallbackLabel: "the buses are")
                reader.log.error("talkback to unknown bus '\(name)'\(hint)", at: location)
            } else if names.contains(name) {
                reader.log.error("'talk_to' names bus '\(name)' twice", at: location)
            } else {
                names.append(name)
            }
        }
        return TalkbackSpec(busNames: names, dimDB: dimDB)
    }
}
