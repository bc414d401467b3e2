// The noise dose an in-ear mix gives its wearer over a show (NIOSH 85 dBA / 8 h, 3 dB exchange). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Accumulates the daily noise dose of one in-ear mix from its loudness.
///
/// The ear level is estimated as the mix's momentary loudness plus ``earSPLOffsetDB`` (the dB SPL at the
/// eardrum a 0 LUFS mix would give: the in-ear transmitter's, receiver's and earpiece's acoustic gain, which
/// Foldback cannot know; 112 dB by default, so a −14 LUFS mix is taken as 98 dB SPL). Loudness (K-weighted)
/// stands in for the A-weighted level. The dose follows NIOSH's recommended exposure limit: 85 dB(A) for
/// 8 hours is 100 %, every 3 dB more halves the allowed time.
public struct EarDose: Sendable {
    /// The NIOSH criterion level, dB(A).
    public static let criterionDB = 85.0
    /// The NIOSH criterion time, seconds (8 hours).
    public static let criterionSeconds = 8.0 * 3600
    /// dB per doubling of dose.
    public static let exchangeRateDB = 3.0
    /// The default ``earSPLOffsetDB``.
    public static let defaultEarSPLOffsetDB = 112.0
    /// How long the recent rate used by ``projectedPercent(showSeconds:)`` looks back, seconds.
    public static let recentWindowSeconds = 60.0

    /// dB SPL at the ear for a 0 LUFS mix.
    public var earSPLOffsetDB: Double
    /// The dose so far, percent.
    public private(set) var percent = 0.0
    /// Seconds accounted so far.
    public private(set) var elapsedSeconds = 0.0
    /// The most recent estimated ear level, dB SPL (−∞ in silence).
    public private(set) var earLevelDB = -Double.infinity
    private var recent: [(seconds: Double, percent: Double)] = []
    private var recentSeconds = 0.0
    private var recentPercent = 0.0

    /// A dose of 0 % at the start of the show.
    public init(earSPLOffsetDB: Double = EarDose.defaultEarSPLOffsetDB) {
        self.earSPLOffsetDB = earSPLOffsetDB
    }

    /// The percent of the daily dose `seconds` at `levelDB` SPL give.
    public static func percent(levelDB: Double, seconds: Double) -> Double {
        guard levelDB.isFinite else { return 0 }
        let allowed = criterionSeconds / pow(2, (levelDB - criterionDB) / exchangeRateDB)
        return 100 * seconds / allowed
    }

    /// Accounts `seconds` of the mix at `loudnessLUFS` (momentary).
    public mutating func add(seconds: Double, loudnessLUFS: Double) {
        guard seconds > 0 else { return }
        earLevelDB = loudnessLUFS.isFinite ? loudnessLUFS + earSPLOffsetDB : -.infinity
        let added = Self.percent(levelDB: earLevelDB, seconds: seconds)
        percent += added
        elapsedSeconds += seconds
        recent.append((seconds, added))
        recentSeconds += seconds
        recentPercent += added
        while let oldest = recent.first, recentSeconds - oldest.seconds >= Self.recentWindowSeconds {
            recent.removeFirst()
            recentSeconds -= oldest.seconds
            recentPercent -= oldest.percent
        }
    }

    /// The dose at the end of a show of `showSeconds` if the rest of it runs at the last minute's rate.
    public func projectedPercent(showSeconds: Double) -> Double {
        guard recentSeconds > 0 else { return percent }
        return percent + recentPercent / recentSeconds * max(0, showSeconds - elapsedSeconds)
    }
}
