// Decides where the feedback suppressor's notches go, how deep, and when they are released (live and ring-out modes). Non-realtime (the feedback worker).
// SPDX-License-Identifier: GPL-3.0-or-later

/// How the suppressor treats the rings it finds.
public enum FeedbackMode: Int, Sendable, Hashable {
    /// Each ring gets a fixed notch that stays (sound check); the notches can be saved as EQ bands.
    case ringOut = 0
    /// Dynamic notches: placed on a ring, deepened while it persists, released after the hold time.
    case live = 1
}

/// A notch as the planner sets it.
public struct NotchSetting: Sendable, Hashable {
    /// Bank slot, 0 ..< ``NotchBank/maximumNotches``.
    public var slot: Int
    /// Centre frequency, Hz.
    public var frequency: Double
    /// Cut, dB (≤ 0; 0 is released).
    public var depthDB: Double
    /// Width (cookbook Q).
    public var q: Double
    /// How fast the bank moves the depth there, dB per second.
    public var depthRateDBPerSecond: Double

    /// A notch setting.
    public init(slot: Int, frequency: Double, depthDB: Double, q: Double, depthRateDBPerSecond: Double) {
        self.slot = slot
        self.frequency = frequency
        self.depthDB = depthDB
        self.q = q
        self.depthRateDBPerSecond = depthRateDBPerSecond
    }
}

/// Places, deepens, widens and releases notches from the rings a ``HowlDetector`` reports.
///
/// A new ring gets a free slot (the oldest live notch when all 16 are taken; ring-out notches are fixed) at
/// ``initialDepthDB`` (or `maxDepthDB` if shallower) and Q ``initialQ``. While the spectrum still shows a peak
/// under a notch (peak-to-average ratio, outside its hump, ≥ ``residueDB``) that has not fallen 3 dB over the last
/// ``settleSeconds`` (half that when it grew 3 dB), or the detector reports the ring again, the notch deepens by
/// ``depthStepDB`` down to `maxDepthDB`, then widens (Q ÷ 1.5, down to ``minimumQ``). In live
/// mode a notch whose ring has not been seen for `holdSeconds` is released slowly (``releaseRate``), and a
/// ring found again near a notch deepens that notch instead of taking another slot.
public struct NotchPlanner: Sendable {
    /// Starting depth of a new notch, dB.
    public static let initialDepthDB = -9.0
    /// Each deepening step, dB.
    public static let depthStepDB = -3.0
    /// Starting width.
    public static let initialQ = 16.0
    /// Widest allowed.
    public static let minimumQ = 5.0
    /// Attack of a notch, dB per second (−9 dB in 15 ms).
    public static let attackRate = 600.0
    /// Release of a live notch, dB per second.
    public static let releaseRate = 6.0
    /// A notch's residual peak-to-average ratio (outside its hump) that still counts as the ring, dB.
    public static let residueDB = 10.0
    /// Time a notch's effect is awaited before it is judged, seconds (longer than the 85 ms analysis window).
    public static let settleSeconds = 0.1

    struct Notch {
        var frequency: Double
        var depthDB: Double
        var q: Double
        var placedAt: Double
        var changedAt: Double
        var lastSeen: Double
        var levelAtChange: Double
        var isReleasing = false
        var isFixed = false
    }

    /// The mode.
    public var mode: FeedbackMode
    /// The deepest cut allowed, dB (negative).
    public var maxDepthDB: Double
    /// How long a live notch outlives its ring, seconds.
    public var holdSeconds: Double
    private var notches: [Notch?] = Array(repeating: nil, count: NotchBank.maximumNotches)

    /// A planner for `mode` with the given depth limit and hold time, starting with `fixed` notches (a saved
    /// ring-out, in slots 0, 1, …: never released or reused; at most ``NotchBank/maximumNotches``).
    public init(mode: FeedbackMode, maxDepthDB: Double, holdSeconds: Double, fixed: [NotchSetting] = []) {
        self.mode = mode
        self.maxDepthDB = min(maxDepthDB, -3)
        self.holdSeconds = max(holdSeconds, 0)
        for (slot, notch) in fixed.prefix(NotchBank.maximumNotches).enumerated() {
            notches[slot] = Notch(frequency: notch.frequency, depthDB: notch.depthDB, q: notch.q, placedAt: 0, changedAt: 0,
                                  lastSeen: 0, levelAtChange: 0, isFixed: true)
        }
    }

    /// The notches placed now (slot, frequency, depth, width).
    public var activeNotches: [NotchSetting] {
        notches.indices.compactMap { slot in
            notches[slot].map { NotchSetting(slot: slot, frequency: $0.frequency, depthDB: $0.depthDB, q: $0.q, depthRateDBPerSecond: 0) }
        }
    }

    /// Takes one analysis frame at `time` seconds: the rings found in it and a probe of the spectrum at a
    /// frequency (peak-to-average ratio outside its hump and level, dB); returns the notch changes to send to the bank.
    public mutating func update(time: Double, rings: [HowlRing], probe: (Double) -> (peakToAverageDB: Double, levelDB: Double)) -> [NotchSetting] {
        var changes: [NotchSetting] = []
        for ring in rings {
            if let slot = covering(ring.frequency) {
                if let change = seen(slot, time: time, level: ring.levelDB, isRing: true) { changes.append(change) }
            } else {
                if let change = place(ring.frequency, level: ring.levelDB, time: time) { changes.append(change) }
            }
        }
        for slot in notches.indices {
            guard let notch = notches[slot] else { continue }
            let (ratio, level) = probe(notch.frequency)
            if ratio >= Self.residueDB {
                if notch.lastSeen < time, let change = seen(slot, time: time, level: level, isRing: false) { changes.append(change) }
            } else if mode == .live, !notch.isFixed, !notch.isReleasing, time - notch.lastSeen >= holdSeconds {
                notches[slot]!.isReleasing = true
                changes.append(setting(slot, depth: 0, rate: Self.releaseRate))
            } else if notch.isReleasing, time - notch.lastSeen >= holdSeconds - notch.depthDB / Self.releaseRate {
                notches[slot] = nil
            }
        }
        return changes
    }

    /// Takes notch `slot` out (ring-out or live, saved or found): its slot is free again and the bank lifts the cut
    /// at ``attackRate``. Returns that change, or nil when the slot holds no notch.
    public mutating func clear(_ slot: Int) -> NotchSetting? {
        guard notches.indices.contains(slot), notches[slot] != nil else { return nil }
        let change = setting(slot, depth: 0, rate: Self.attackRate)
        notches[slot] = nil
        return change
    }

    /// Notch `slot`'s ring is still (or again) there at `level` dB: a releasing notch returns to its depth;
    /// a settled one deepens when a new ring was reported on it or its level has not fallen 3 dB over the last
    /// settle time (a ring the notch holds decays; one it does not hold stays or grows).
    private mutating func seen(_ slot: Int, time: Double, level: Double, isRing: Bool) -> NotchSetting? {
        notches[slot]!.lastSeen = time
        let notch = notches[slot]!
        if notch.isReleasing {
            notches[slot]!.isReleasing = false
            notches[slot]!.changedAt = time
            notches[slot]!.levelAtChange = level
            return setting(slot, depth: notch.depthDB, rate: Self.attackRate)
        }
        let waited = time - notch.changedAt
        // judged after the settle time, or after half of it when the ring has grown 3 dB since (the notch is not holding it)
        guard waited >= Self.settleSeconds || (waited >= Self.settleSeconds / 2 && level >= notch.levelAtChange + 3) else { return nil }
        guard isRing || level >= notch.levelAtChange - 3 else {
            notches[slot]!.changedAt = time          // falling: judged again one settle time from now, from here
            notches[slot]!.levelAtChange = level
            return nil
        }
        return deepen(slot, time: time, level: level)
    }

    /// The slot whose notch sits on `frequency` (within a quarter of a new notch's bandwidth), if any; a ring
    /// further off gets a notch of its own rather than widening a neighbour.
    private func covering(_ frequency: Double) -> Int? {
        notches.indices.first { slot in
            guard let notch = notches[slot] else { return false }
            return abs(frequency - notch.frequency) <= 0.25 * notch.frequency / Self.initialQ
        }
    }

    /// A new notch on `frequency`, in a free slot or the oldest one not fixed; nil when every slot is fixed.
    private mutating func place(_ frequency: Double, level: Double, time: Double) -> NotchSetting? {
        let reusable = notches.indices.filter { notches[$0].map { !$0.isFixed } ?? false }
        guard let slot = notches.firstIndex(where: { $0 == nil })
            ?? reusable.min(by: { notches[$0]!.placedAt < notches[$1]!.placedAt }) else { return nil }
        notches[slot] = Notch(frequency: frequency, depthDB: max(Self.initialDepthDB, maxDepthDB), q: Self.initialQ,
                              placedAt: time, changedAt: time, lastSeen: time, levelAtChange: level, isFixed: mode == .ringOut)
        return setting(slot, depth: notches[slot]!.depthDB, rate: Self.attackRate)
    }

    private mutating func deepen(_ slot: Int, time: Double, level: Double) -> NotchSetting? {
        var notch = notches[slot]!
        if notch.depthDB > maxDepthDB {
            notch.depthDB = max(notch.depthDB + Self.depthStepDB, maxDepthDB)
        } else if notch.q > Self.minimumQ {
            notch.q = max(notch.q / 1.5, Self.minimumQ)
        } else {
            return nil
        }
        notch.changedAt = time
        notch.levelAtChange = level
        notches[slot] = notch
        return setting(slot, depth: notch.depthDB, rate: Self.attackRate)
    }

    private func setting(_ slot: Int, depth: Double, rate: Double) -> NotchSetting {
        let notch = notches[slot]!
        return NotchSetting(slot: slot, frequency: notch.frequency, depthDB: depth, q: notch.q, depthRateDBPerSecond: rate)
    }
}
