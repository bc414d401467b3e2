// The X32 meter frames: /meters/0 and /meters/1 blobs built from the engine's strip and bus meters. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// The meter blobs an X32 sends for `/meters`: a little-endian 32-bit count, then that many little-endian
/// 32-bit floats, linear (1.0 is full scale).
///
/// `/meters/0` (70 values): 32 input channels, 8 aux ins, 8 FX returns, 16 mix buses, 6 matrices.
/// `/meters/1` (96 values): 32 input channels, 32 gate and 32 dynamics gain reductions (1.0: none).
public enum X32Meters {
    /// Values in each frame by meter address.
    public static let counts: [String: Int] = ["/meters/0": 70, "/meters/1": 96]

    /// The blob for `address` (`/meters/0` or `/meters/1`) from `snapshot`, the channels and buses laid out
    /// as `mapping` places them; nil for a meter page not emulated.
    public static func blob(_ address: String, snapshot: MeterSnapshot, mapping: X32Mapping) -> [UInt8]? {
        guard let count = counts[address] else { return nil }
        var values = [Float](repeating: 0, count: count)
        let strips = Dictionary(snapshot.strips.map { ($0.name, $0.reading.peak) }, uniquingKeysWith: { first, _ in first })
        let buses = Dictionary(snapshot.buses.map { ($0.name, $0.reading.peak) }, uniquingKeysWith: { first, _ in first })
        for (index, name) in mapping.channels.enumerated() where index < 32 { values[index] = name.flatMap { strips[$0] } ?? 0 }
        if address == "/meters/0" {
            for (index, name) in mapping.buses.enumerated() where index < 16 { values[48 + index] = buses[name] ?? 0 }
        } else {
            for index in 32..<96 { values[index] = 1 }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 + 4 * count)
        withUnsafeBytes(of: Int32(count).littleEndian) { bytes.append(contentsOf: $0) }
        for value in values {
            let clean = value.isFinite ? max(0, value) : 0
            withUnsafeBytes(of: clean.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }
}
