// A player and a separate recorder client driven together, for tests and foldback-probe. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackJACK

/// Plays deterministic signals into a system under test and records what comes back.
///
/// Two clients, so the JACK graph runs player → system under test → recorder within one cycle with no
/// feedback loop: a sample the recorder took at frame time `T` can be compared with what the player
/// played at `T` (``expectedSample(channel:frameTime:)``) to prove gains and zero added latency.
public final class JACKTestClient: @unchecked Sendable {
    /// The playing client (`<prefix>-player`).
    public let player: JACKTestPlayer
    /// The recording client (`<prefix>-recorder`).
    public let recorder: JACKTestRecorder

    /// Opens and activates both clients.
    /// - Parameters:
    ///   - serverName: the server; `nil` means `$JACK_DEFAULT_SERVER`, else the default.
    ///   - signals: one per player output port.
    ///   - recordChannels: how many recorder input ports.
    ///   - capacity: the longest take, in frames.
    ///   - namePrefix: client names are `<namePrefix>-player` and `<namePrefix>-recorder`.
    public init(
        serverName: String? = nil, signals: [TestSignal], recordChannels: Int, capacity: Int,
        namePrefix: String = "fb-test"
    ) throws(JACKError) {
        player = try JACKTestPlayer(name: "\(namePrefix)-player", serverName: serverName, signals: signals)
        recorder = try JACKTestRecorder(
            name: "\(namePrefix)-recorder", serverName: serverName, channels: recordChannels, capacity: capacity)
    }

    /// Connects player output `i` to `destinations[i]` (full port names); `nil` entries stay unconnected.
    /// - Returns: one warning per connection that could not be made.
    public func connectPlayer(to destinations: [String?]) -> [JACKConnectionWarning] {
        destinations.prefix(player.ports.count).enumerated().compactMap { channel, destination in
            destination.flatMap { player.connect(channel: channel, to: $0) }
        }
    }

    /// Connects `sources[i]` (full port names) to recorder input `i`; `nil` entries stay unconnected.
    /// - Returns: one warning per connection that could not be made.
    public func connectRecorder(from sources: [String?]) -> [JACKConnectionWarning] {
        sources.prefix(recorder.ports.count).enumerated().compactMap { channel, source in
            source.flatMap { recorder.connect(from: $0, toChannel: channel) }
        }
    }

    /// Records `frames` frames after `settleFrames`, taking it again (up to `attempts` times in all)
    /// when the server reports an xrun during the take, since a late client can leave stale buffers.
    /// - Parameters:
    ///   - timeout: the limit for each take, in seconds.
    ///   - requiresContinuity: false for level checks that may record through a missed cycle.
    public func record(
        frames: Int, settleFrames: Int = 0, attempts: Int = 3, timeout: Double = 10, requiresContinuity: Bool = true
    ) throws(JACKError) -> JACKRecording {
        var attempt = 1
        while true {
            let xrunsBefore = recorder.xrunCount
            let recording = try recorder.record(
                frames: frames, settleFrames: settleFrames, timeout: timeout, requiresContinuity: requiresContinuity)
            if recorder.xrunCount == xrunsBefore || attempt >= attempts { return recording }
            attempt += 1
        }
    }

    /// What player channel `channel` played at absolute frame time `frameTime`.
    public func expectedSample(channel: Int, frameTime: UInt32) -> Float {
        player.expectedSample(channel: channel, frameTime: frameTime)
    }

    /// Closes the recorder, then the player. Safe to call twice.
    public func close() {
        recorder.close()
        player.close()
    }
}
