// An HRTF set's directions grouped into elevation rings, and the four-point interpolation weights of any direction. Realtime-safe lookups after init.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Up to four measured directions and their weights (summing to 1) that interpolate one direction.
public struct HRIRWeights: Sendable, Equatable {
    /// Direction indices (unused slots repeat a used one with weight 0).
    public var indices: SIMD4<Int32> = .zero
    /// Weights, summing to 1.
    public var weights: SIMD4<Float> = .zero
}

/// The measured directions as rings of equal elevation, each sorted by azimuth: a direction between two rings
/// interpolates bilinearly (azimuth within each ring, then elevation between the rings), the usual grid of
/// measured sets (KEMAR's 10° rings, most SOFA sets). Pointers allocated once; ``deallocate()`` frees them.
struct HRIRRings: @unchecked Sendable {
    let count: Int
    let elevations: UnsafeMutablePointer<Float>
    let starts: UnsafeMutablePointer<Int32>
    let sizes: UnsafeMutablePointer<Int32>
    /// Azimuths (ascending, −180 ≤ a < 180) and their direction indices, ring after ring.
    let azimuths: UnsafeMutablePointer<Float>
    let indices: UnsafeMutablePointer<Int32>

    init(directions: [HRIRDirection]) {
        func key(_ elevation: Float) -> Int { Int((elevation * 100).rounded()) }
        let grouped = Dictionary(grouping: directions.indices, by: { key(directions[$0].elevationDeg) })
        let keys = grouped.keys.sorted()
        count = keys.count
        elevations = .allocate(capacity: count)
        starts = .allocate(capacity: count)
        sizes = .allocate(capacity: count)
        azimuths = .allocate(capacity: directions.count)
        indices = .allocate(capacity: directions.count)
        var next = 0
        for (ring, elevationKey) in keys.enumerated() {
            let members = grouped[elevationKey]!.map { (Self.wrap(directions[$0].azimuthDeg), $0) }.sorted { $0.0 < $1.0 }
            elevations[ring] = Float(elevationKey) / 100
            starts[ring] = Int32(next)
            sizes[ring] = Int32(members.count)
            for (azimuth, index) in members {
                azimuths[next] = azimuth
                indices[next] = Int32(index)
                next += 1
            }
        }
    }

    func deallocate() {
        elevations.deallocate()
        starts.deallocate()
        sizes.deallocate()
        azimuths.deallocate()
        indices.deallocate()
    }

    /// The weights interpolating azimuth `azimuthDeg`, elevation `elevationDeg` (clamped to the measured rings).
    func weights(azimuthDeg: Float, elevationDeg: Float) -> HRIRWeights {
        let azimuth = Self.wrap(azimuthDeg)
        var upper = 0
        while upper < count && elevations[upper] < elevationDeg { upper += 1 }
        let lower = max(0, upper - 1)
        upper = min(upper, count - 1)
        var share: Float = 0
        if upper != lower {
            share = (elevationDeg - elevations[lower]) / (elevations[upper] - elevations[lower])
        }
        let below = pair(ring: lower, azimuth: azimuth)
        let above = pair(ring: upper, azimuth: azimuth)
        var result = HRIRWeights()
        result.indices = SIMD4(below.first, below.second, above.first, above.second)
        result.weights = SIMD4((1 - below.share) * (1 - share), below.share * (1 - share), (1 - above.share) * share, above.share * share)
        return result
    }

    /// The two neighbours in `ring` around `azimuth` and the second's share.
    private func pair(ring: Int, azimuth: Float) -> (first: Int32, second: Int32, share: Float) {
        let start = Int(starts[ring]), size = Int(sizes[ring])
        if size == 1 { return (indices[start], indices[start], 0) }
        var upper = 0
        while upper < size && azimuths[start + upper] <= azimuth { upper += 1 }
        let lowerSlot = upper == 0 ? size - 1 : upper - 1
        let upperSlot = upper == size ? 0 : upper
        let from = azimuths[start + lowerSlot]
        var to = azimuths[start + upperSlot]
        var position = azimuth
        if to <= from { to += 360 }
        if position < from { position += 360 }
        let share = to > from ? min(max((position - from) / (to - from), 0), 1) : 0
        return (indices[start + lowerSlot], indices[start + upperSlot], share)
    }

    /// `degrees` in −180 ≤ a < 180.
    static func wrap(_ degrees: Float) -> Float {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value >= 180 { value -= 360 }
        if value < -180 { value += 360 }
        return value
    }

    /// The unit vector of a direction: x front, y right, z up.
    static func unitVector(azimuthDeg: Float, elevationDeg: Float) -> SIMD3<Float> {
        let azimuth = azimuthDeg * .pi / 180, elevation = elevationDeg * .pi / 180
        return SIMD3(cos(elevation) * cos(azimuth), cos(elevation) * sin(azimuth), sin(elevation))
    }
}
