// Re-exports the shared test support (bounded waits, pseudo-terminals) to every file of the integration tests. Non-realtime.
@_exported import FoldbackTestSupport
