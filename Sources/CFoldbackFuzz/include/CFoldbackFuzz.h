// The fuzz runner's crash and hang capture: saves the input under test when the process dies or stalls. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef CFOLDBACKFUZZ_H
#define CFOLDBACKFUZZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Arms the capture: on SIGABRT, SIGSEGV, SIGBUS, SIGFPE or SIGILL the current input is written to
/// `crash_path` (async-signal-safe open/write) and the signal is re-raised; a watchdog thread writes it
/// to `hang_path` and exits with status 3 when one input has been under test for `hang_seconds`.
/// The paths are copied. Returns 0, or -1 when the watchdog thread cannot start.
int fb_fuzz_capture_arm(const char *crash_path, const char *hang_path, double hang_seconds);

/// Marks the start of one input's run: `bytes` (kept, not copied: valid until the next call) and its index.
void fb_fuzz_capture_begin(const uint8_t *bytes, size_t count, uint64_t index);

/// Marks the end of the current input's run.
void fb_fuzz_capture_end(void);

#ifdef __cplusplus
}
#endif
#endif
