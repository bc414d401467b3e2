// Where a sandboxed plugin's meters (its control outputs) sit in its sandbox's channel, and reading them. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackSandbox
import FoldbackEngine

/// A sandboxed plugin's control outputs (a level, a gain reduction): the sandbox copies them into the channel after each
/// cycle, the plugins of a chain one after another from ``offset``; Foldback's meter readers take them from there.
struct SandboxMeters: Sendable {
    /// Where the plugin's first meter is among the channel's.
    var offset: Int
    /// What the plugin publishes, in the sandbox's order (see ``LV2Unit/publishMeters(_:)``).
    var descriptors: [ParameterDescriptor]

    /// The descriptors the channel has room for (a chain's meters past FB_SANDBOX_METERS are not carried).
    var shown: [ParameterDescriptor] { Array(descriptors.prefix(max(0, Int(FB_SANDBOX_METERS) - offset))) }

    /// The values as the sandbox last published them.
    func readings(from channel: SandboxChannel) -> [UnitMeterReading] {
        shown.enumerated().map { index, descriptor in
            UnitMeterReading(key: descriptor.key, value: fb_sandbox_meter(channel.shared, UInt32(offset + index)))
        }
    }
}
