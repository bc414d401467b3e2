// How plugins are hosted: live on the audio thread, or offline faster than realtime. Non-realtime.

/// The hosting mode a graph's plugins are prepared for.
public enum PluginHosting: Sendable, Equatable {
    /// Live on JACK: plugin background work (`worker:schedule`) runs on a worker thread, fed through
    /// lock-free rings, and its responses reach the plugin on a later cycle.
    case live
    /// Offline rendering: background work runs synchronously inside the cycle that asks for it, so
    /// renders are deterministic and never wait for a thread.
    case offline
}
