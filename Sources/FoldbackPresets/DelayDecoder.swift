// Reads a `delay` unit's `distance_m`, the other spelling of its `delay_ms`. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// Turns `distance_m` into `delay_ms` (distance / 343 m/s); a table giving both is an error at `distance_m`,
/// since neither could silently win.
enum DelayDecoder {
    /// The keys a `delay` unit table takes besides its schema's.
    static let unitKeys = ["distance_m"]
    /// The distances a delay can cover: 0 … 171.5 m (500 ms at 343 m/s).
    static let distanceRange: ClosedRange<Float> = 0...Float(DelayKernel.maximumTime * DelayKernel.speedOfSound)

    /// Writes `delay_ms` from `distance_m` into `parameters` when the table gives a distance.
    static func decode(_ reader: TableReader, parameters: inout [String: Float]) {
        guard reader.table["distance_m"] != nil else { return }
        if reader.table["delay_ms"] != nil {
            reader.log.error("give 'delay_ms' or 'distance_m', not both (distance_m = d is delay_ms = d / 343 m/s × 1000)",
                             at: reader.keyLocation("distance_m"))
            return
        }
        let distance = reader.number("distance_m", in: distanceRange, default: 0)
        parameters["delay_ms"] = Float(Double(distance) / DelayKernel.speedOfSound * 1000)
    }
}
