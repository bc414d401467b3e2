// Typed errors of the engine's non-realtime API. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// What can go wrong building a graph or addressing its parameters.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A strip or bus has a channel count other than 1 or 2.
    case unsupportedChannelCount(name: String, channels: Int)
    /// A send names a bus index the graph does not have.
    case unknownBus(strip: String, bus: Int)
    /// A unit could not be prepared (the unit says why).
    case unitSetupFailed(unit: String, reason: String)
    /// More input or output channels than the engine's IO tables hold.
    case tooManyChannels(needed: Int, capacity: Int)
    /// A parameter address that does not exist in the current graph.
    case unknownParameter(String)
    /// A value outside a parameter's range.
    case valueOutOfRange(parameter: String, value: Float, range: ClosedRange<Float>)
    /// No graph is installed yet.
    case noGraph
    /// The realtime thread has not drained the parameter ring (it is not running, or is stalled).
    case parameterQueueFull
    /// Graph swaps are queued faster than the audio thread takes them (is the engine running?).
    case swapQueueFull
    /// The graph is already installed; build a new graph for each install.
    case graphAlreadyInstalled
    /// A graph continuing units of another was installed when that other was not the running graph.
    case predecessorNotRunning
    /// A sample rate or block size the engine cannot run at.
    case invalidFormat(sampleRate: Double, maxFrames: Int)
    /// A record tap or file source names a strip or bus the graph does not have.
    case unknownTapPoint(String)
    /// A return strip feeds, directly or through other returns, the bus it returns: the names along the loop.
    case sendLoop([String])
    /// A host-side parameter (``HostParameter``) its applier refused, and why.
    case hostParameterRefused(String)
    /// A binaural bus that cannot render: not stereo, or its HRTF set is at another sample rate.
    case binauralBus(name: String, reason: String)

    public var description: String {
        switch self {
        case let .unsupportedChannelCount(name, channels):
            return "'\(name)' has \(channels) channels; Foldback strips and buses are mono (1) or stereo (2)"
        case let .unknownBus(strip, bus):
            return "strip '\(strip)' sends to bus #\(bus), which does not exist"
        case let .unitSetupFailed(unit, reason):
            return "unit '\(unit)' could not be prepared: \(reason)"
        case let .tooManyChannels(needed, capacity):
            return "the graph needs \(needed) channels but the engine was set up for \(capacity) (sized by the preset it started with; "
                + "start with the larger preset to run it)"
        case let .unknownParameter(name):
            return "unknown parameter \(name)"
        case let .valueOutOfRange(parameter, value, range):
            return "\(parameter) = \(value) is outside \(range.lowerBound)…\(range.upperBound)"
        case .noGraph:
            return "no graph is installed"
        case .parameterQueueFull:
            return "the audio thread is not taking parameter changes (is the engine running?)"
        case .swapQueueFull:
            return "the audio thread is not taking new graphs (is the engine running?)"
        case .graphAlreadyInstalled:
            return "this graph is already installed; build a new one"
        case .predecessorNotRunning:
            return "the graph continues plugins of a graph that is no longer the running one; build it afresh"
        case let .invalidFormat(sampleRate, maxFrames):
            return "cannot run at \(sampleRate) Hz with blocks of \(maxFrames) frames"
        case let .unknownTapPoint(name):
            return "there is no strip or bus named '\(name)'"
        case let .sendLoop(names):
            return "send loop: \(names.joined(separator: " → "))"
        case let .hostParameterRefused(reason):
            return reason
        case let .binauralBus(name, reason):
            return "binaural bus '\(name)': \(reason)"
        }
    }
}
