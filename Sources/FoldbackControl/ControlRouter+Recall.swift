// OSC `/foldback/preset/recall/get`: what the last song change recalled from its preset and which live moves it kept. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension ControlRouter {
    /// `/foldback/preset/recall s MODE i RECALLED i KEPT s SUMMARY s KEPT_PATHS`: what the last song change recalled and
    /// kept (KEPT_PATHS joined by spaces; `none`, 0, 0 and "" before any change).
    func recallReply() -> OSCMessage {
        guard let report = target.lastRecall else {
            return OSCMessage(Self.root + "/preset/recall", [.string("none"), .int(0), .int(0), .string(""), .string("")])
        }
        return OSCMessage(Self.root + "/preset/recall", [
            .string(report.mode.rawValue), .int(Int32(report.changed.count)), .int(Int32(report.kept.count)),
            .string(report.summary), .string(report.kept.map(\.path).joined(separator: " ")),
        ])
    }
}
