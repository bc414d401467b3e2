// The three coordinates of a send's position in a binaural bus, as parameters. Realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP

/// One coordinate of a send's ``BinauralPosition``: the parameter `azimuth_deg`, `elevation_deg` or `distance_m`.
public enum BinauralAxis: Int, Sendable, Hashable, CaseIterable {
    /// Degrees, −180…180: 0 front, positive to the right.
    case azimuth
    /// Degrees, −40…90: 0 ear level, positive up.
    case elevation
    /// Metres, 0.2…20.
    case distance

    /// The parameter's key.
    public var key: String {
        switch self {
        case .azimuth: ParameterTree.Key.azimuth
        case .elevation: ParameterTree.Key.elevation
        case .distance: ParameterTree.Key.distance
        }
    }

    /// The values it takes.
    public var range: ClosedRange<Float> {
        switch self {
        case .azimuth: BinauralPosition.azimuthRange
        case .elevation: BinauralPosition.elevationRange
        case .distance: BinauralPosition.distanceRange
        }
    }

    /// Its declaration in the parameter tree.
    public var descriptor: ParameterDescriptor {
        switch self {
        case .azimuth: ParameterTree.EngineParameters.azimuth
        case .elevation: ParameterTree.EngineParameters.elevation
        case .distance: ParameterTree.EngineParameters.distance
        }
    }

    /// This coordinate of `position`.
    public func value(of position: BinauralPosition) -> Float {
        switch self {
        case .azimuth: position.azimuthDeg
        case .elevation: position.elevationDeg
        case .distance: position.distanceM
        }
    }

    /// `position` with this coordinate set to `value` (clamped to the range).
    public func setting(_ value: Float, in position: BinauralPosition) -> BinauralPosition {
        var moved = position
        switch self {
        case .azimuth: moved.azimuthDeg = value
        case .elevation: moved.elevationDeg = value
        case .distance: moved.distanceM = value
        }
        return BinauralPosition(azimuthDeg: moved.azimuthDeg, elevationDeg: moved.elevationDeg, distanceM: moved.distanceM)
    }
}
