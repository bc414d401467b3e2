// The X32 and X-Air meter frames: /meters blobs built from the engine's strip and bus meters. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
import Foundation

/// The meter blobs the consoles send for `/meters` and `/batchsubscribe`: a little-endian 32-bit count of values,
/// then the values.
///
/// X32 (little-endian 32-bit floats, linear, 1.0 full scale): `/meters/0` (70 values): 32 input channels, 8 aux ins,
/// 8 FX returns, 16 mix buses, 6 matrices; `/meters/1` (96): 32 input channels, 32 gate and 32 dynamics gain
/// reductions (1.0: none).
///
/// X-Air (little-endian signed 16-bit integers, dB × 256, −32768 for silence): `/meters/1` (40 values): 16 input
/// channels, 5 stereo pairs of aux and FX returns, 6 buses, 4 FX sends, the main L and R (post fader), 2 monitor.
public enum X32Meters {
    /// Values in each X32 frame by meter address.
    public static let counts: [String: Int] = ["/meters/0": 70, "/meters/1": 96]
    /// Values in each X-Air frame by meter address.
    public static let xairCounts: [String: Int] = ["/meters/1": 40]

    /// The pages `dialect` serves.
    public static func pages(_ dialect: X32Dialect) -> [String: Int] { dialect == .x32 ? counts : xairCounts }

    /// The blob for `address` from `snapshot`, the channels and buses laid out as `mapping` places them (its
    /// dialect decides the layout); nil for a meter page not emulated.
    public static func blob(_ address: String, snapshot: MeterSnapshot, mapping: X32Mapping) -> [UInt8]? {
        guard let count = pages(mapping.dialect)[address] else { return nil }
        var values = [Float](repeating: 0, count: count)
        let strips = Dictionary(snapshot.strips.map { ($0.name, $0.reading.peak) }, uniquingKeysWith: { first, _ in first })
        let buses = Dictionary(snapshot.buses.map { ($0.name, $0.reading.peak) }, uniquingKeysWith: { first, _ in first })
        for (index, name) in mapping.channels.enumerated() where index < 32 { values[index] = name.flatMap { strips[$0] } ?? 0 }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: Int32(count).littleEndian) { bytes.append(contentsOf: $0) }
        if mapping.dialect == .xair {
            for (index, name) in mapping.buses.enumerated() where index < 6 { values[26 + index] = buses[name] ?? 0 }
            let main = mapping.mainBus.flatMap { buses[$0] } ?? 0
            (values[36], values[37]) = (main, main)
            for value in values { withUnsafeBytes(of: decibels256(value).littleEndian) { bytes.append(contentsOf: $0) } }
            return bytes
        }
        if address == "/meters/0" {
            for (index, name) in mapping.buses.enumerated() where index < 16 { values[48 + index] = buses[name] ?? 0 }
        } else {
            for index in 32..<96 { values[index] = 1 }
        }
        for value in values {
            let clean = value.isFinite ? max(0, value) : 0
            withUnsafeBytes(of: clean.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// A linear level as an X-Air meter value: dB × 256 in a signed 16-bit integer, −32768 (−128 dB) for silence.
    static func decibels256(_ level: Float) -> Int16 {
        guard level.isFinite, level > 0 else { return .min }
        let scaled = (20 * log10(level) * 256).rounded()
        return Int16(min(max(scaled, Float(Int16.min)), Float(Int16.max)))
    }
}
