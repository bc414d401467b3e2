// Re-exports the shared test support (bounded waits, pseudo-terminals) to every file of the integration tests. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@_exported import FoldbackTestSupport
