// Validates the `[midi]` table and its `[[midi.cc]]` and `[[midi.note]]` tables against the preset's strips and buses. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Reads and checks a preset's `[midi]` section.
enum MIDIMapDecoder {
    /// The keys of `[midi]`.
    static let keys = ["channel", "program_change", "program_channel", "cc", "note"]
    /// The keys of a `[[midi.cc]]` table.
    static let controlKeys = ["channel", "cc", "target", "min", "max", "curve", "mode", "relative", "step"]
    /// The keys of a `[[midi.note]]` table: a note is on or off, so it takes no range, curve or encoder.
    static let noteKeys = ["channel", "note", "target", "mode"]

    /// The map (defaults when `reader` is nil); problems go to the reader's log. `preset` holds the
    /// strips and buses decoded so far, which targets must name.
    static func decode(_ reader: TableReader?, preset: Preset) -> MIDIMap {
        guard let reader else { return MIDIMap() }
        reader.checkKeys(allowed: keys)
        let defaultChannel = channel(reader, "channel") ?? 1
        var map = MIDIMap(
            respondsToProgramChange: reader.bool("program_change", default: true),
            programChannel: channel(reader, "program_channel"))
        var seen = NameRegistry(what: "mapping of")
        for kind in [MIDIControlKind.controlChange, .note] {
            for controlReader in reader.tables(kind.rawValue, label: "[[midi.\(kind.rawValue)]]") ?? [] {
                guard let control = decodeControl(controlReader, kind: kind, defaultChannel: defaultChannel, preset: preset) else { continue }
                let key = "channel \(control.channel) \(kind.name(control.controller))"
                guard seen.register(key, at: controlReader.valueLocation(kind.rawValue), log: reader.log) else { continue }
                map.controls.append(control)
            }
        }
        return map
    }

    /// A MIDI channel 1…16 under `key`, or nil if absent or invalid (reported).
    private static func channel(_ reader: TableReader, _ key: String) -> Int? {
        guard reader.table[key] != nil else { return nil }
        return wholeNumber(reader, key, in: 1...16)
    }

    /// A whole number within `range`, or nil (reported when present but wrong).
    private static func wholeNumber(_ reader: TableReader, _ key: String, in range: ClosedRange<Float>) -> Int? {
        let value = reader.number(key, in: range, default: .nan)
        guard !value.isNaN else { return nil }
        guard value == value.rounded() else {
            reader.log.error("'\(key)' must be a whole number, found \(NumberFormatting.plain(value))", at: reader.valueLocation(key))
            return nil
        }
        return Int(value)
    }

    private static func decodeControl(_ reader: TableReader, kind: MIDIControlKind, defaultChannel: Int, preset: Preset) -> MIDIControlSpec? {
        let numberKey = kind.rawValue
        reader.checkKeys(allowed: kind == .note ? noteKeys : controlKeys)
        let channel = reader.table["channel"] == nil ? defaultChannel : channel(reader, "channel")
        let controller = reader.table[numberKey] == nil ? nil : wholeNumber(reader, numberKey, in: 0...127)
        if reader.table[numberKey] == nil { reader.log.error("[[midi.\(numberKey)]] is missing required key '\(numberKey)'", at: reader.location) }
        let curve = reader.string("curve").flatMap { enumValue(MIDICurve.self, $0, key: "curve", in: reader) }
        let mode = reader.string("mode").flatMap { enumValue(MIDISwitchMode.self, $0, key: "mode", in: reader) } ?? .level
        let relative = reader.string("relative").flatMap { enumValue(MIDIRelativeEncoding.self, $0, key: "relative", in: reader) }
        guard let targetText = reader.requiredString("target") else { return nil }
        guard let target = MIDITarget(parsing: targetText) else {
            reader.log.error("target \"\(targetText)\" is not a parameter path; write strip.<name>.gain_db or any path "
                             + "`foldback check PRESET --parameters` lists, with dots (strip.<name>.unit.<id>.<key>, bus.<name>.<key>, cue.…)",
                             at: reader.valueLocation("target"))
            return nil
        }
        if let current = MIDITarget.currentSpelling(of: targetText) {
            reader.log.warning("target \"\(targetText)\" is an older spelling; write \"\(current)\"", at: reader.valueLocation("target"))
        }
        let info: MIDITargetInfo
        switch target.info(in: preset) {
        case .success(let found): info = found
        case .failure(let problem):
            reader.log.error(problem.message, at: reader.valueLocation("target"))
            return nil
        }
        if kind == .note, !info.isSwitch {
            reader.log.error("a note is on or off: \(target) is a continuous target; map a note to a switch or a press "
                             + "(tempo.tap, a mute, a bypass, strip.<name>.source.play …), or the target to a controller in [[midi.cc]]",
                             at: reader.valueLocation("target"))
            return nil
        }
        let range = info.range
        let minimum = reader.number("min", in: range, default: info.isSwitch ? 0 : info.defaultRange.lowerBound)
        let maximum = reader.number("max", in: range, default: info.isSwitch ? 1 : info.defaultRange.upperBound)
        let resolvedCurve = curve ?? info.defaultCurve
        if resolvedCurve == .log, !(minimum > 0 && maximum > 0) {
            reader.log.error("curve \"log\" needs 'min' and 'max' above 0, found \(NumberFormatting.plain(minimum)) "
                             + "and \(NumberFormatting.plain(maximum))", at: reader.valueLocation(reader.table["curve"] == nil ? "target" : "curve"))
        }
        if relative != nil, info.isSwitch {
            reader.log.error("'relative' is for a continuous target; \(target) is a switch (use 'mode')", at: reader.valueLocation("relative"))
        }
        let span = abs(maximum - minimum)
        let defaultStep = MIDIRelativeEncoding.defaultStep(
            minimum: minimum, maximum: maximum, isDecibels: resolvedCurve == .db, isWholeNumber: info.steps != nil)
        let step = relative == nil ? 1 : reader.table["step"] == nil ? defaultStep : reader.number("step", in: 0...max(span, Float.leastNonzeroMagnitude), default: defaultStep)
        guard let channel, let controller else { return nil }
        return MIDIControlSpec(
            channel: channel, controller: controller, target: target, minimum: minimum, maximum: maximum,
            curve: resolvedCurve, mode: mode, relative: relative, step: step, kind: kind)
    }

    /// A case of a string enum named by `text`, or nil after reporting the valid spellings.
    private static func enumValue<Value: RawRepresentable & CaseIterable>(
        _ type: Value.Type, _ text: String, key: String, in reader: TableReader
    ) -> Value? where Value.RawValue == String {
        if let value = Value(rawValue: text) { return value }
        let names = Value.allCases.map(\.rawValue)
        let quoted = names.map { "\"\($0)\"" }.joined(separator: " or ")
        var message = "'\(key)' = \"\(text)\" is not one of \(quoted)"
        if let suggestion = Suggestion.closest(to: text, in: names) { message += "; did you mean \"\(suggestion)\"?" }
        reader.log.error(message, at: reader.valueLocation(key))
        return nil
    }
}
