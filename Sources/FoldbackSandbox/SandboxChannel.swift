// One sandbox's shared-memory channel as Swift sees it: made by Foldback, opened by the sandbox, its counters. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackSandbox
import Glibc

/// The locked, pre-faulted shared memory one sandbox and Foldback's audio thread exchange a cycle through
/// (CFoldbackSandbox). Foldback makes it (a memfd) and the sandbox maps it by the path ``path``.
public final class SandboxChannel: @unchecked Sendable {
    /// The mapping (both sides).
    public let shared: OpaquePointer
    /// Foldback's memfd, or -1 on the sandbox's side.
    private let descriptor: Int32
    /// Whether mlock succeeded (false: the memory-lock limit, RLIMIT_MEMLOCK, is too low).
    public let isLocked: Bool

    /// A new channel for `inputs` and `outputs` channels of up to `maxFrames` frames and `parameters` controls.
    public init(inputs: Int, outputs: Int, maxFrames: Int, parameters: Int) throws(SandboxError) {
        var fd: Int32 = -1
        var locked: Int32 = 0
        guard let shared = fb_sandbox_create(UInt32(inputs), UInt32(outputs), UInt32(maxFrames), UInt32(parameters), &fd, &locked) else {
            throw .channel(reason: String(cString: strerror(errno)))
        }
        self.shared = shared
        descriptor = fd
        isLocked = locked != 0
    }

    /// The channel Foldback made, opened from `path` (the sandbox's side).
    public init(opening path: String) throws(SandboxError) {
        var locked: Int32 = 0
        guard let shared = fb_sandbox_open(path, &locked) else {
            throw .channel(reason: "cannot map \(path): \(String(cString: strerror(errno)))")
        }
        self.shared = shared
        descriptor = -1
        isLocked = locked != 0
    }

    deinit {
        fb_sandbox_unmap(shared)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Where a process of the same user maps this channel from.
    public var path: String { "/proc/\(getpid())/fd/\(descriptor)" }

    /// The sandbox's state word (FB_SANDBOX_STARTING, _READY, _FAILED).
    public var state: UInt32 { fb_sandbox_state(shared) }
    /// Whether the sandbox reported it is ready.
    public var isReady: Bool { state == UInt32(FB_SANDBOX_READY) }
    /// The latency the sandbox's plugins report, in frames.
    public var latency: Int { Int(fb_sandbox_latency(shared)) }
    /// Cycles that missed their deadline in a row, and in all.
    public var lateInARow: Int { Int(fb_sandbox_late_in_a_row(shared)) }
    public var lateTotal: Int { Int(fb_sandbox_late_total(shared)) }
    /// Cycles collected from a post at the start of the chunk (the sandbox worked while the engine rendered the rest),
    /// and the wall time Foldback's audio thread waited for the sandbox in all, in nanoseconds.
    public var postedCycles: Int { Int(fb_sandbox_posted_cycles(shared)) }
    public var waitNanoseconds: Int { Int(fb_sandbox_wait_total_ns(shared)) }
    /// When the sandbox last took a request, and when Foldback's thread last reached the unit's place (CLOCK_MONOTONIC ns).
    public var takenAtNanoseconds: Int64 { fb_sandbox_taken_at_ns(shared) }
    public var reachedAtNanoseconds: Int64 { fb_sandbox_reached_at_ns(shared) }
    /// Cycles whose output the sandbox delivered in time.
    public var delivered: Int { Int(fb_sandbox_delivered(shared)) }
    /// Cycles whose output was NaN, infinite or above +24 dBFS since the last rearm.
    public var garbage: Int { Int(fb_sandbox_garbage(shared)) }
    /// Cycles in a row whose output was garbage (the first asked the sandbox to reset its plugins).
    public var garbageInARow: Int { Int(fb_sandbox_garbage_in_a_row(shared)) }
    /// Runs of garbage so far, each of which asked for a reset.
    public var garbageRuns: Int { Int(fb_sandbox_garbage_runs(shared)) }
    /// The last delivered cycle's round trip, in nanoseconds.
    public var lastRoundTripNanoseconds: Int { Int(fb_sandbox_last_round_trip_ns(shared)) }
    /// Channel counts and sizes as the region declares them.
    public var inputChannels: Int { Int(fb_sandbox_input_channels(shared)) }
    public var outputChannels: Int { Int(fb_sandbox_output_channels(shared)) }
    public var maxFrames: Int { Int(fb_sandbox_max_frames(shared)) }
    public var parameterCount: Int { Int(fb_sandbox_parameter_count(shared)) }

    /// Foldback's supervisor, once the old sandbox is gone: falls back until a new one reports ready.
    public func rearm() { fb_sandbox_rearm(shared) }

    /// Whether the sandbox runs with the allocation counter preloaded, and the mallocs and frees its cycles made (0 and 0).
    public var countsAllocations: Bool { fb_sandbox_counts_allocations(shared) != 0 }
    public var sandboxAllocations: Int { Int(fb_sandbox_allocations(shared)) }
    public var sandboxFrees: Int { Int(fb_sandbox_frees(shared)) }

    /// Control `index` as Foldback last set it (nil: never set), and as the sandbox's plugin had it after its default
    /// state, LV2 preset and state file were restored (nil: not reported yet).
    public func parameterValue(at index: Int) -> Float? {
        let value = fb_sandbox_parameter(shared, UInt32(index))
        return value.isNaN ? nil : value
    }

    public func restoredValue(at index: Int) -> Float? {
        let value = fb_sandbox_restored_value(shared, UInt32(index))
        return value.isNaN ? nil : value
    }

    /// Asks the sandbox's command thread for `kind` with `text` and waits (off the audio thread) at most `timeout`, while
    /// `isAlive` holds; the answer's status (0: done) and text, or nil when none came.
    func request(_ kind: Int, text: String, timeout: Duration, isAlive: () -> Bool) -> (status: Int32, text: String)? {
        let seq = fb_sandbox_command_post(shared, UInt32(kind), text)
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        var answer = [CChar](repeating: 0, count: Int(FB_SANDBOX_TEXT_BYTES))
        while ContinuousClock.now < deadline {
            if fb_sandbox_command_wait(shared, seq, 20_000_000, &status, &answer, UInt32(answer.count)) != 0 {
                return (status, Self.string(answer))
            }
            if !isAlive() { return nil }
        }
        return nil
    }

    /// The text of a command word's buffer: its bytes up to the first NUL, as UTF-8.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// What can go wrong setting a sandbox up.
public enum SandboxError: Error, CustomStringConvertible, Equatable {
    /// The shared memory could not be made or mapped.
    case channel(reason: String)
    /// The sandbox did not do what Foldback asked (save its plugin's state): why.
    case request(reason: String)
    /// The `foldback-sandbox` executable was not found.
    case executableMissing(path: String)
    /// The sandbox process could not be started.
    case launch(reason: String)

    public var description: String {
        switch self {
        case .channel(let reason): "plugin sandbox: shared memory: \(reason)"
        case .executableMissing(let path): "plugin sandbox: \(path) is missing (build the foldback-sandbox product, set FOLDBACK_SANDBOX, "
            + "or run the plugin in Foldback's own process with isolation = \"none\")"
        case .launch(let reason): "plugin sandbox: cannot start: \(reason)"
        case .request(let reason): "plugin sandbox: \(reason)"
        }
    }
}
