// Where a binaural source sits around the listener, and what its distance does to level and delay per ear. Realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A source's position around the listener's head.
public struct BinauralPosition: Sendable, Hashable {
    /// The azimuths accepted, degrees (0 front, positive to the right).
    public static let azimuthRange: ClosedRange<Float> = -180...180
    /// The elevations accepted, degrees (0 ear level, positive up).
    public static let elevationRange: ClosedRange<Float> = -40...90
    /// The distances accepted, metres.
    public static let distanceRange: ClosedRange<Float> = 0.2...20
    /// The distance at which a source plays at its send level and without added delay, metres.
    public static let referenceDistance: Float = 1
    /// The speed of sound, metres per second.
    public static let speedOfSound: Float = 343
    /// Half the distance between the ears, metres (for the near-field level difference).
    public static let earOffset: Float = 0.0875

    /// Degrees, 0 = front, positive = right.
    public var azimuthDeg: Float
    /// Degrees, 0 = ear level, positive = up.
    public var elevationDeg: Float
    /// Metres from the centre of the head.
    public var distanceM: Float

    /// A position, each value clamped to its range.
    public init(azimuthDeg: Float = 0, elevationDeg: Float = 0, distanceM: Float = referenceDistance) {
        self.azimuthDeg = min(max(azimuthDeg, Self.azimuthRange.lowerBound), Self.azimuthRange.upperBound)
        self.elevationDeg = min(max(elevationDeg, Self.elevationRange.lowerBound), Self.elevationRange.upperBound)
        self.distanceM = min(max(distanceM, Self.distanceRange.lowerBound), Self.distanceRange.upperBound)
    }

    /// The delay the distance adds beyond ``referenceDistance``, seconds (a closer source cannot arrive early:
    /// it only gets louder).
    public var addedDelaySeconds: Float { max(0, distanceM - Self.referenceDistance) / Self.speedOfSound }

    /// Linear gain of `ear` (0 left, 1 right) for a set measured at `measuredDistance`: 1/r from ``referenceDistance``,
    /// times the near-field correction, the ratio of the ear's own distance to the source's at the measured distance to
    /// that at this distance (1 at the measured distance; close to one ear, that ear gains and the other loses).
    public func gain(ear: Int, measuredDistance: Float) -> Float {
        let direction = HRIRRings.unitVector(azimuthDeg: azimuthDeg, elevationDeg: elevationDeg)
        let earPosition = SIMD3<Float>(0, ear == 0 ? -Self.earOffset : Self.earOffset, 0)
        func relative(_ distance: Float) -> Float {
            let offset = direction * distance - earPosition
            return (offset * offset).sum().squareRoot() / distance
        }
        return Self.referenceDistance / distanceM * relative(measuredDistance) / relative(distanceM)
    }
}
