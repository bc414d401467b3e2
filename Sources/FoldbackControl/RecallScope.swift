// Recall scope of a song change: what the next preset recalls and which live moves it keeps, through the parameter tree. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
public import FoldbackPresets
import Synchronization

/// Decides, parameter by parameter of the ``ParameterTree``, what a song change (setlist move, OSC load or
/// reload) takes from the next preset and what it keeps as played now, as consoles' recall scope and safes do.
///
/// In ``RecallMode/changes`` (the default) a parameter is recalled only when the next preset's file gives it a
/// value other than the last preset loaded did: a send the singer raised in song 1 stays raised in song 2 unless
/// song 2's file changes that send. A safe (``Preset/isRecallSafe(_:)``, the setlist's ``RecallSafes``) is
/// never recalled. In ``RecallMode/full`` every value is the file's except the safes.
///
/// Thread-safe: it remembers the last preset loaded (as its file says, before any carried value).
public final class RecallScope: Sendable {
    private struct State {
        var loaded: Preset
        var mode: RecallMode
        var safes: RecallSafes
        var report: RecallReport?
    }

    private let state: Mutex<State>

    /// A scope whose last loaded preset is `loaded` (the show's first), recalling by `mode`, with `safes` on top of each preset's.
    public init(loaded: Preset, mode: RecallMode = .changes, safes: RecallSafes = RecallSafes()) {
        state = Mutex(State(loaded: loaded, mode: mode, safes: safes))
    }

    /// How much a song change recalls (a setlist's `recall` sets it).
    public var mode: RecallMode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    /// Paths no song change recalls, on top of each preset's own safes (a setlist's `recall_safe`).
    public var safes: RecallSafes {
        get { state.withLock { $0.safes } }
        set { state.withLock { $0.safes = newValue } }
    }

    /// What the last song change recalled and kept (nil before the first).
    public var lastReport: RecallReport? { state.withLock { $0.report } }

    /// `next` (as loaded from its file) with the live values it keeps written in, and the report; nothing is
    /// remembered until ``commit(loaded:report:)`` (a switch that fails changes nothing).
    public func carry(into next: Preset, from target: any LiveControlTarget) -> (preset: Preset, report: RecallReport) {
        let (loaded, mode, safes) = state.withLock { ($0.loaded, $0.mode, $0.safes) }
        guard let graph = target.engine.graph else { return (next, RecallReport(mode: mode)) }
        let running = ParameterTree.cached(preset: target.currentPreset, graph: graph)
        return Self.carry(
            into: next, lastLoaded: loaded, running: running, mode: mode, safes: safes,
            live: { target.engine.value(at: $0.address) ?? $0.presetValue })
    }

    /// Remembers `loaded` (the file's values) as the last preset loaded and `report` as the last switch's.
    public func commit(loaded: Preset, report: RecallReport) {
        state.withLock {
            $0.loaded = loaded
            $0.report = report
        }
    }

    /// The carrying itself: for each parameter of `next`'s tree that `running` also has and plays at another value
    /// than `next` gives, keeps the live value when it is safe or (in ``RecallMode/changes``) when `next` gives it
    /// the value `lastLoaded` gave; takes `next`'s otherwise.
    public static func carry(
        into next: Preset, lastLoaded: Preset, running: ParameterTree, mode: RecallMode, safes: RecallSafes,
        live: (ParameterNode) -> Float
    ) -> (preset: Preset, report: RecallReport) {
        let tree = ParameterTree(preset: next)
        let previous = ParameterTree(preset: lastLoaded)
        var values: [ParameterAddress: Float] = [:]
        var report = RecallReport(mode: mode)
        var keptTrims = Set<String>()
        for node in tree.nodes where isRecalled(node.address) {
            guard let playing = running.node(at: node.path) else { continue }
            let value = live(playing)
            guard !same(value, node.presetValue) else { continue }
            let isSafe = safes.covers(node.path) || next.isRecallSafe(node.path)
            let unchanged = previous.node(at: node.path).map { same($0.presetValue, node.presetValue) } ?? false
            let entry = RecallReport.Entry(path: node.path, live: value, preset: node.presetValue, unit: node.descriptor.unit, isSafe: isSafe)
            guard isSafe || (mode == .changes && unchanged) else {
                report.changed.append(entry)
                continue
            }
            report.kept.append(entry)
            values[storedAddress(node.address)] = value
            if case .stripTrimCompensated = node.address { keptTrims.insert(node.path) }
            if case .stripTrim = node.address { keptTrims.insert(node.path) }
        }
        // A kept trim keeps what its compensated moves did to the sends (folded into their levels).
        for node in tree.nodes {
            guard case .stripTrimCompensation = node.address, let playing = running.node(at: node.path) else { continue }
            let trimPath = String(node.path.dropLast(ParameterTree.Key.trimCompensation.count)) + ParameterTree.Key.trim
            let value = live(playing)
            if keptTrims.contains(trimPath), value != 0 { values[node.address] = value }
        }
        return (next.applying(values, tree: tree).preset, report)
    }

    /// Whether a song change recalls this kind of parameter at all: presses, cue selections and input switches are
    /// no part of a preset (they stay as they are); a compensation goes with its trim.
    static func isRecalled(_ address: ParameterAddress) -> Bool {
        switch address {
        case .talkback, .cueBus, .cuePFL, .cueAFL, .cueClear, .stripTrimCompensation: false
        case let .host(parameter): SourceParameters.parameter(of: parameter) != nil
        default: true
        }
    }

    /// The address a preset model holds the value at (a compensated trim is stored as the trim).
    private static func storedAddress(_ address: ParameterAddress) -> ParameterAddress {
        if case let .stripTrimCompensated(strip) = address { return .stripTrim(strip: strip) }
        return address
    }

    private static func same(_ a: Float, _ b: Float) -> Bool { a == b || (a.isNaN && b.isNaN) }
}

/// What one song change recalled from the new preset and which live moves it kept, for the log, OSC and the pages.
public struct RecallReport: Sendable, Equatable {
    /// One parameter played at another value than the new preset gives it.
    public struct Entry: Sendable, Equatable {
        /// Its tree path.
        public var path: String
        /// The value it played before the switch.
        public var live: Float
        /// The value the new preset's file gives it.
        public var preset: Float
        /// Its unit (`dB`), empty for none.
        public var unit: String
        /// Whether it was kept because it is a safe (rather than because the new song does not change it).
        public var isSafe: Bool
    }

    /// The scope the switch used.
    public var mode: RecallMode
    /// Parameters the switch moved to the new preset's value.
    public var changed: [Entry] = []
    /// Live moves the switch kept (the new preset's file says otherwise).
    public var kept: [Entry] = []

    /// A report of a switch by `mode` that changed and kept nothing.
    public init(mode: RecallMode) {
        self.mode = mode
    }

    /// One line for the log and replies: `recalled 2 (strip/gtr/gain_db -7 → -3 dB, …); kept 3 live moves (…)`.
    public var summary: String {
        func list(_ entries: [Entry], kept: Bool) -> String {
            let shown = entries.prefix(Self.listed).map { entry in
                let values = kept ? value(entry.live, entry.unit) + (entry.isSafe ? ", safe" : "") : value(entry.live, "") + " → " + value(entry.preset, entry.unit)
                return "\(entry.path) \(values)"
            }
            return (shown + (entries.count > Self.listed ? ["… \(entries.count - Self.listed) more"] : [])).joined(separator: ", ")
        }
        let recalled = changed.isEmpty ? "recalled nothing that was moved" : "recalled \(changed.count) (\(list(changed, kept: false)))"
        let keptText = kept.isEmpty ? "kept no live moves" : "kept \(kept.count) live \(kept.count == 1 ? "move" : "moves") (\(list(kept, kept: true)))"
        return "\(recalled); \(keptText)"
    }

    /// How many entries of each list ``summary`` names.
    static let listed = 6

    private func value(_ number: Float, _ unit: String) -> String {
        NumberFormatting.plain(number) + (unit.isEmpty ? "" : " " + unit)
    }
}
