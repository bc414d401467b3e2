// Typed errors of live control: bad OSC, unknown addresses, values out of range, rejected presets, refused file paths. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Why a control request was refused; its description is what the error reply and the log say.
public enum ControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a readable OSC message, or arguments of the wrong number or type.
    case malformed(String)
    /// No such address, strip, bus, unit or parameter (the message says which part is unknown).
    case unknownAddress(String)
    /// A value outside the parameter's range.
    case outOfRange(parameter: String, value: Float, range: ClosedRange<Float>)
    /// A preset that could not be loaded or built; the old one keeps playing.
    case presetRejected(String)
    /// A setlist request that cannot be served (no setlist, or no such entry).
    case setlist(String)
    /// A file path a request may not use (see ``FilePathPolicy``); nothing was read or written.
    case fileRefused(String)
    /// The engine or the socket refused (queue full, bind failure…).
    case failed(String)

    public var description: String {
        switch self {
        case let .malformed(text), let .unknownAddress(text), let .presetRejected(text), let .setlist(text), let .fileRefused(text),
             let .failed(text):
            return text
        case let .outOfRange(parameter, value, range):
            return "\(parameter) = \(Self.format(value)) is out of range; allowed: \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
        }
    }

    private static func format(_ value: Float) -> String {
        if value == -.infinity { return "-inf" }
        if value == .infinity { return "inf" }
        return value == value.rounded() && abs(value) < 1e7 ? String(Int(value)) : "\(value)"
    }
}
