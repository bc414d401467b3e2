// Which console a port speaks as: an X32 (port 10023's protocol) or an X-Air XR18 (10024's), and where they differ. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The console family a listening port answers as. The two protocols share most addresses; an X-Air has
/// fewer channels and buses, numbers its buses `/bus/1…6` and calls its main `/lr`.
public enum X32Dialect: String, Sendable, CaseIterable {
    /// A Behringer X32 (`--x32-port`, conventionally 10023).
    case x32
    /// A Behringer X-Air XR18 (`--xair-port`, conventionally 10024).
    case xair

    /// How Foldback's messages name the protocol: `X32` or `X-Air`.
    public var protocolName: String { self == .x32 ? "X32" : "X-Air" }
    /// The model `/xinfo` and `/info` name.
    public var model: String { self == .x32 ? "X32" : "XR18" }
    /// A firmware version current apps accept.
    public var firmware: String { self == .x32 ? "4.06" : "1.17" }
    /// The OSC server version `/info` gives first.
    var serverVersion: String { self == .x32 ? "V2.07" : "V0.04" }
    /// Input channels (`/ch/01…`).
    public var channelCount: Int { self == .x32 ? 32 : 16 }
    /// Mix buses (`/bus/…`).
    public var busCount: Int { self == .x32 ? 16 : 6 }
    /// DCAs (`/dca/1…`).
    public var dcaCount: Int { self == .x32 ? 8 : 4 }
    /// Mute groups (`/config/mute/1…`).
    public var muteGroupCount: Int { self == .x32 ? 6 : 4 }
    /// The main stereo bus's address: `/main/st` or `/lr`.
    public var main: String { self == .x32 ? "/main/st" : "/lr" }

    /// `/ch/05`, for channel `number` from 1.
    public func channel(_ number: Int) -> String { "/ch/" + Self.padded(number, 2) }
    /// `/bus/03` on an X32, `/bus/3` on an X-Air, for bus `number` from 1.
    public func bus(_ number: Int) -> String { "/bus/" + Self.padded(number, self == .x32 ? 2 : 1) }
    /// `/ch/05/mix/03`: the send of channel `channel` to bus `bus` (two digits on both consoles).
    public func send(channel: Int, bus: Int) -> String { self.channel(channel) + "/mix/" + Self.padded(bus, 2) }

    /// `number` in decimal with leading zeros up to `width` digits.
    static func padded(_ number: Int, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
