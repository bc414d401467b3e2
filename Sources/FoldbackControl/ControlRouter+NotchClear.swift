// OSC `/foldback/strip/<strip>/unit/<id>/notch/<n>/clear` and `/foldback/bus/<bus>/unit/<id>/notch/<n>/clear`: one feedback notch taken out. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackGraph

extension ControlRouter {
    /// Whether `parts` (the address after `/foldback/`) is `strip|bus/<owner>/unit/<id>/notch/<n>/clear`.
    public static func isNotchClear(_ parts: [Substring]) -> Bool {
        parts.count == 7 && (parts[0] == "strip" || parts[0] == "bus") && parts[2] == "unit" && parts[4] == "notch" && parts[6] == "clear"
    }

    /// Clears notch `<n>` (1 … 16, as the meters number them) of the running `feedback` unit `<id>`: a ring-out's
    /// notch the engineer does not want kept (the next save leaves it out). The change is reported like any other
    /// notch change (`/foldback/<kind>/<owner>/feedback f freq 0`); no reply of its own.
    func notchClear(_ message: OSCMessage, parts: [Substring], surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        try expectNoArguments(message)
        let noun = String(parts[0]), owner = String(parts[1]), id = String(parts[3])
        guard let number = Int(parts[5]), (1...16).contains(number) else { throw .malformed("notch numbers are 1 … 16, not '\(parts[5])'") }
        guard let graph = target.engine.graph else { throw .failed("no graph is running yet") }
        do {
            try FeedbackNotchCapture.clearNotch(number, unit: id, owner: owner, isBus: noun == "bus", in: graph)
        } catch {
            switch error {
            case .noOwner: throw .unknownAddress("no \(noun) named '\(owner)'")
            case .noUnit: throw .unknownAddress("\(noun) '\(owner)' has no unit '\(id)'")
            case .notFeedback: throw .failed("only a feedback unit has notches ('\(id)' is not one)")
            case .noNotch: throw .failed("feedback unit '\(id)' on \(noun) '\(owner)' has no notch \(number) in place")
            }
        }
        note("\(message.path): notch \(number) cleared", from: surface)
        return []
    }
}
