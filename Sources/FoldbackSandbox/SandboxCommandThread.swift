// The sandbox process's command thread: answers Foldback's requests (save the plugin's LV2 state) beside the audio thread. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackSandbox
import Foundation
import Glibc

/// A thread of the sandbox process, at normal priority, that waits on the channel's command word and does what Foldback
/// asks off the sandbox's audio thread: saving the plugin's state as a lilv state bundle (LV2 lets a plugin's state
/// save run alongside its `run`, as Foldback's own process does for a plugin it hosts).
enum SandboxCommandThread {
    /// How often the thread looks up from waiting to see whether Foldback is still there.
    static let idleCheckNanoseconds: Int64 = 200_000_000

    /// Starts the thread for `served`; it ends when Foldback (`parentProcess`) is gone.
    static func start(serving served: ServedChain, parentProcess: Int32) {
        let channel = served.channel
        // Read before the thread starts, so before the sandbox says it is ready: a request Foldback posts as soon as it
        // sees ready is newer than this even when the new thread first runs after it (reading it in the thread lost one).
        let latest = fb_sandbox_command_latest(channel.shared)
        let thread = Thread {
            var seen = latest
            var kind: UInt32 = 0
            var text = [CChar](repeating: 0, count: Int(FB_SANDBOX_TEXT_BYTES))
            while getppid() == parentProcess {
                guard fb_sandbox_command_take(channel.shared, &seen, idleCheckNanoseconds, &kind, &text, UInt32(text.count)) != 0 else { continue }
                let (status, answer) = answer(kind, text: SandboxChannel.string(text), served: served)
                fb_sandbox_command_answer(channel.shared, seen, status, answer)
            }
        }
        thread.name = "fb-sandbox-cmd"
        thread.start()
    }

    /// Does request `kind`: status 0 and the answer, or 1 and why not. A saved state answers with its `.ttl` path, and the
    /// right instance's on a second line for a dual-mono pair.
    private static func answer(_ kind: UInt32, text: String, served: ServedChain) -> (Int32, String) {
        switch Int(kind) {
        case Int(FB_SANDBOX_COMMAND_SAVE_STATE):
            do {
                // "member\npath": which plugin of the chain, and where.
                let parts = text.split(separator: "\n", maxSplits: 1).map(String.init)
                guard parts.count == 2, let member = Int(parts[0]), served.units.indices.contains(member) else { return (1, "bad request: \(text)") }
                let saved = try served.units[member].saveState(to: parts[1])
                return (0, [saved.path, saved.rightPath].compactMap { $0 }.joined(separator: "\n"))
            } catch {
                return (1, error.description)
            }
        default:
            return (1, "unknown request \(kind)")
        }
    }
}
