// A connection that could not be made, reported rather than thrown. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A connection that could not be made; returned, never thrown, because a missing
/// patchbay target must not stop a show.
public struct JACKConnectionWarning: Sendable, Equatable, CustomStringConvertible {
    /// The full name of the port audio flows out of.
    public let source: String
    /// The full name of the port audio flows into.
    public let destination: String
    /// Why the connection was not made.
    public let reason: String
    /// A one-line message naming both ends.
    public var description: String { "Could not connect \(source) → \(destination): \(reason)." }
}
