// What each compressor is doing, as the status line and the meter view show it: compression and expansion apart. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
package import FoldbackEngine
import Foundation

/// One compressor's gain change, read from its meter readings (`gain_reduction_db`, `expansion_db`):
/// compression shows as `GR -4.5 dB`; downward expansion, only when there is any, as `exp -12.0 dB`, or as
/// `gate -80 dB` within 1 dB of ``CompressorKernel/expansionRangeDB`` (the gate is closed; capped there). A silent,
/// gated input therefore reads `GR  0.0 dB  gate -80 dB`, not 80 dB of compression.
package struct DynamicsReadout {
    /// What kind of gain reduction a row shows.
    package enum Kind: String {
        case compression = "GR"
        case expansion = "exp"
        case gate
    }

    /// `strip/unit`.
    package var unit: String
    package var kind: Kind
    /// The gain reduction in dB, ≥ 0 (shown negated, as the gain the unit applies).
    package var decibels: Float

    /// Expansion below this (dB) is not shown: the expander is open.
    package static let shownExpansion: Float = 0.05
    /// Expansion within this many dB of ``CompressorKernel/expansionRangeDB`` shows as a closed gate at the
    /// full range (the envelope only creeps up on the range, and 79 dB down is as closed as 80).
    package static let closedMargin: Float = 1

    /// The readouts of every compressor in `meters`: its compression, then its expansion where any.
    package static func readouts(_ meters: MeterSnapshot) -> [DynamicsReadout] {
        meters.units.flatMap { unit -> [DynamicsReadout] in
            let name = "\(unit.strip)/\(unit.unit)"
            var rows: [DynamicsReadout] = []
            if let compression = unit.readings.first(where: { $0.key == CompressorUnit.compressionKey }) {
                rows.append(DynamicsReadout(unit: name, kind: .compression, decibels: max(compression.value, 0)))
            }
            if let expansion = unit.readings.first(where: { $0.key == CompressorUnit.expansionKey }), expansion.value >= shownExpansion {
                let isClosed = expansion.value >= CompressorKernel.expansionRangeDB - closedMargin
                rows.append(DynamicsReadout(unit: name, kind: isClosed ? .gate : .expansion,
                                            decibels: isClosed ? CompressorKernel.expansionRangeDB : expansion.value))
            }
            return rows
        }
    }

    /// Whether `key` is one of the readings shown here (not a plugin's control output).
    package static func isDynamicsKey(_ key: String) -> Bool {
        key == CompressorUnit.compressionKey || key == CompressorUnit.expansionKey
    }

    /// The value as shown: `-4.5 dB` (`0.0 dB` when nothing is reduced), a closed gate as `-80 dB`.
    package var valueText: String {
        if kind == .gate { return String(format: "%.0f dB", -decibels) }
        return decibels >= 0.05 ? String(format: "%4.1f dB", -decibels) : String(format: "%4.1f dB", 0)
    }

    /// `GR -4.5 dB`, `exp -12.0 dB`, `gate -80 dB`.
    package var text: String { "\(kind.rawValue) \(valueText)" }
}
