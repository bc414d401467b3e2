// C shims Swift cannot express: variadic jack_client_open, FTZ/DAZ, the RealtimeSanitizer
// SPDX-License-Identifier: GPL-3.0-or-later
// nonblocking wrapper, async-signal-safe stop flags, disk space reservation and malloc tuning. Realtime: fb_realtime_* run on the audio thread.
#ifndef CFOLDBACK_H
#define CFOLDBACK_H

#include <stdint.h>
#include <jack/jack.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Opens a JACK client; `server_name` may be NULL for the default server.
/// Wraps the variadic jack_client_open, which Swift cannot call.
jack_client_t *fb_jack_client_open(const char *client_name, jack_options_t options,
                                   jack_status_t *status, const char *server_name);

/// Returns 1 when the server holds another client of `client`'s name (jackd never allows it; PipeWire's
/// libjack 0.3.x does, and then each of the two sees the other's ports under the shared name).
int fb_jack_client_name_is_shared(jack_client_t *client);

/// Sets flush-to-zero and denormals-are-zero on the calling thread (x86 MXCSR, AArch64 FPCR).
void fb_realtime_enable_ftz_daz(void);

/// Returns 1 when FTZ and DAZ are both set on the calling thread.
int fb_realtime_ftz_daz_enabled(void);

/// A realtime cycle entry point: one process call of `frames` frames on `context`.
typedef void (*fb_cycle_fn)(void *context, uint32_t frames);

/// Runs `cycle(context, frames)` inside a function marked [[clang::nonblocking]].
/// Built with -fsanitize=realtime, every malloc, free, lock or blocking syscall made
/// (directly or by callees, Swift included) aborts with a RealtimeSanitizer report.
/// Without the sanitizer it is a plain call. Sets a thread-local "on the audio path" flag
/// read by the allocation counter.
void fb_realtime_cycle(fb_cycle_fn cycle, void *context, uint32_t frames);

/// 1 when this object was built with RealtimeSanitizer.
int fb_realtime_sanitizer_enabled(void);

/// Reserves disk blocks for the first `length` bytes of the file open as `fd` without changing its size
/// (fallocate with FALLOC_FL_KEEP_SIZE). Returns 0, or the errno: ENOSPC when the disk cannot hold it,
/// EOPNOTSUPP (or another) when the file system does not reserve space.
int fb_reserve_file_space(int fd, int64_t length);

/// Installs SIGINT/SIGTERM handlers that only record the signal.
void fb_install_stop_signals(void);

/// The last stop signal received (SIGINT or SIGTERM), or 0.
int fb_stop_signal(void);

/// Callback timing (realtime-safe, static storage): a monotonic timestamp when timing is enabled, else 0.
uint64_t fb_callback_timing_start(void);
/// Records the time since `start` in a 1 µs histogram and the maximum (nothing when `start` is 0).
void fb_callback_timing_stop(uint64_t start);
/// Turns timing on (1) or off (0); off by default, when start/stop cost one atomic load.
void fb_callback_timing_enable(int enabled);
/// Clears the histogram, count and maximum.
void fb_callback_timing_reset(void);
/// Callbacks timed since the last reset.
uint64_t fb_callback_timing_count(void);
/// The longest callback since the last reset, ns.
uint64_t fb_callback_timing_max_ns(void);
/// The `fraction` quantile (0.99 = p99) of callback time since the last reset, ns (1 µs resolution).
uint64_t fb_callback_timing_percentile_ns(double fraction);
/// The preloaded allocation counter's audio-path totals (libFoldbackAllocCounter.so, see
/// fb_realtime_cycle): returns 1 and fills both when it is loaded and wired to the cycle, else 0.
int fb_audio_allocation_counts(int64_t *allocations, int64_t *frees);

/// Installs a handler that only counts `signo` (SIGHUP, SIGUSR1, SIGUSR2: run-time requests).
void fb_count_signal(int signo);

/// How many `signo` signals have arrived since ``fb_count_signal`` was called for it.
int fb_signal_count(int signo);

/// Caps glibc's malloc arenas at `count` (mallopt M_ARENA_MAX); call before the process starts threads, as glibc
/// fixes the cap when a thread first needs an arena of its own. Returns 1 when set, 0 where unsupported.
int fb_malloc_limit_arenas(int count);

/// Gives free heap pages of every malloc arena back to the system (glibc malloc_trim(0)). Never on the audio
/// thread: it locks each arena in turn. Returns 1 when memory was released.
int fb_malloc_trim(void);

#ifdef __cplusplus
}
#endif
#endif
