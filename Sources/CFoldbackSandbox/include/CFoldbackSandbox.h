// The plugin sandbox's shared-memory channel: one cycle's audio, controls and hand-over words between Foldback and a sandbox process.
// SPDX-License-Identifier: GPL-3.0-or-later
// Realtime: fb_sandbox_process (Foldback's audio thread) and fb_sandbox_serve_wait / fb_sandbox_serve_done (the sandbox's
// audio thread). Creating, opening, mapping and the supervisor's calls are non-realtime.
#ifndef CFOLDBACK_SANDBOX_H
#define CFOLDBACK_SANDBOX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The shared region: a header of atomics, the controls, then the audio (inputs, then outputs, `maxFrames` floats each).
typedef struct fb_sandbox_shared fb_sandbox_shared;

/// What the sandbox reports in `state`.
enum { FB_SANDBOX_STARTING = 0, FB_SANDBOX_READY = 1, FB_SANDBOX_FAILED = 2 };
/// What a late or faulty cycle's output is (a unit's `on_fault`).
enum { FB_SANDBOX_BYPASS = 0, FB_SANDBOX_MUTE = 1 };

/// A new channel in a memfd: mapped shared, pre-faulted and (when the memory-lock limit allows) locked. Returns the
/// mapping, its file descriptor in `fd` (kept open: the sandbox opens /proc/<pid>/fd/<fd>), and in `locked` whether
/// mlock succeeded. NULL on failure (errno set). Non-realtime.
fb_sandbox_shared *fb_sandbox_create(uint32_t inputChannels, uint32_t outputChannels, uint32_t maxFrames,
                                     uint32_t parameterCount, int *fd, int *locked);
/// Maps an existing channel from `path` (the sandbox's side); NULL on failure or a region of another layout.
fb_sandbox_shared *fb_sandbox_open(const char *path, int *locked);
/// Unmaps a channel (either side); closes nothing.
void fb_sandbox_unmap(fb_sandbox_shared *shared);

uint32_t fb_sandbox_input_channels(const fb_sandbox_shared *shared);
uint32_t fb_sandbox_output_channels(const fb_sandbox_shared *shared);
uint32_t fb_sandbox_max_frames(const fb_sandbox_shared *shared);
uint32_t fb_sandbox_parameter_count(const fb_sandbox_shared *shared);
/// Channel `channel`'s input or output buffer (`maxFrames` floats).
float *fb_sandbox_input(fb_sandbox_shared *shared, uint32_t channel);
float *fb_sandbox_output(fb_sandbox_shared *shared, uint32_t channel);
/// Control `index`'s value as Foldback last set it; NaN when never set since the channel was made.
float fb_sandbox_parameter(const fb_sandbox_shared *shared, uint32_t index);
/// Sets control `index` (Foldback's side; realtime: one relaxed atomic store).
void fb_sandbox_set_parameter(fb_sandbox_shared *shared, uint32_t index, float value);

/// The sandbox's state word (FB_SANDBOX_…) and latency in frames.
uint32_t fb_sandbox_state(const fb_sandbox_shared *shared);
void fb_sandbox_set_ready(fb_sandbox_shared *shared, uint32_t latency);
void fb_sandbox_set_failed(fb_sandbox_shared *shared);
uint32_t fb_sandbox_latency(const fb_sandbox_shared *shared);

/// Supervisor (non-realtime), after the sandbox process is gone: marks the channel STARTING and idle, so the
/// audio thread falls back until a new sandbox reports ready. Counters stay; `lateInARow` and the garbage counters
/// restart at 0.
void fb_sandbox_rearm(fb_sandbox_shared *shared);
/// Counters the supervisor and tests read: cycles that missed their deadline in a row and in all, cycles the
/// sandbox delivered, cycles whose output was non-finite or above +24 dBFS, and the last round trip (ns).
uint32_t fb_sandbox_late_in_a_row(const fb_sandbox_shared *shared);
uint64_t fb_sandbox_late_total(const fb_sandbox_shared *shared);
uint64_t fb_sandbox_delivered(const fb_sandbox_shared *shared);
uint32_t fb_sandbox_garbage(const fb_sandbox_shared *shared);
/// Cycles in a row whose output was garbage: the first of a run falls back and asks the sandbox to reset its plugins
/// (fb_sandbox_resets), as the engine's NaN guard does in Foldback's process; a clean cycle ends the run.
uint32_t fb_sandbox_garbage_in_a_row(const fb_sandbox_shared *shared);
/// Runs of garbage so far (each asked for one reset).
uint32_t fb_sandbox_garbage_runs(const fb_sandbox_shared *shared);
uint64_t fb_sandbox_last_round_trip_ns(const fb_sandbox_shared *shared);

/// Foldback's audio thread (a unit's reset, the NaN guard's): asks the sandbox to clear its plugins' state.
void fb_sandbox_request_reset(fb_sandbox_shared *shared);
/// The sandbox's side: the reset requests made so far (it resets its plugins when this moves).
uint32_t fb_sandbox_resets(const fb_sandbox_shared *shared);

/// The sandbox's side, its audio thread: waits (futex, at most `timeoutNs`) for a request newer than `*seen`; returns
/// 1 with `*seen` and `*frames` updated, or 0 on timeout (so the sandbox can notice it should stop).
int fb_sandbox_serve_wait(fb_sandbox_shared *shared, uint32_t *seen, uint32_t *frames, int64_t timeoutNs);
/// The sandbox's side: the outputs for request `seq` are written; publishes them and wakes Foldback.
void fb_sandbox_serve_done(fb_sandbox_shared *shared, uint32_t seq);

/// One cycle of the sandbox's work, called with the cycle's frames (realtime).
typedef void (*fb_sandbox_cycle_fn)(void *context, uint32_t frames);
/// The sandbox's audio thread: waits as fb_sandbox_serve_wait does (not a realtime scope: the idle wait between cycles,
/// as JACK's own), then runs `cycle` and fb_sandbox_serve_done inside the realtime scope Foldback's cycle has (the
/// allocation counter's audio flag, RealtimeSanitizer's nonblocking mark), and publishes the sandbox's audio-path
/// allocation and free counts when the counter is preloaded. Returns 1 after a cycle, 0 on timeout.
int fb_sandbox_serve_cycle(fb_sandbox_shared *shared, uint32_t *seen, int64_t timeoutNs, fb_sandbox_cycle_fn cycle, void *context);
/// Whether the sandbox runs with the allocation counter preloaded, and the mallocs and frees its cycles made (must be 0).
int fb_sandbox_counts_allocations(const fb_sandbox_shared *shared);
uint64_t fb_sandbox_allocations(const fb_sandbox_shared *shared);
uint64_t fb_sandbox_frees(const fb_sandbox_shared *shared);

/// The control values the sandbox's plugin had after its default state, LV2 preset and state file were restored (before
/// Foldback's controls), written once by the sandbox before it reports ready; NaN until then.
float fb_sandbox_restored_value(const fb_sandbox_shared *shared, uint32_t index);
void fb_sandbox_set_restored_value(fb_sandbox_shared *shared, uint32_t index, float value);

/// How many control-output values (meters) one channel carries for all its plugins; a chain's outputs past this are not shown.
enum { FB_SANDBOX_METERS = 128 };
/// Meter `index` as the sandbox last published it (0 before its first cycle; NaN past FB_SANDBOX_METERS). Any thread.
float fb_sandbox_meter(const fb_sandbox_shared *shared, uint32_t index);
/// The sandbox's side, after a cycle (realtime: one relaxed atomic store): meter `index`'s float bits; ignored past the end.
void fb_sandbox_set_meter_bits(fb_sandbox_shared *shared, uint32_t index, uint32_t bits);

/// Requests Foldback makes off the audio thread to a sandbox's own non-realtime thread.
enum { FB_SANDBOX_COMMAND_SAVE_STATE = 1 };
/// The text a request carries (a directory) and its answer (paths, or an error) hold at most this many bytes with the NUL.
enum { FB_SANDBOX_TEXT_BYTES = 8192 };
/// Foldback's side (non-realtime, one request at a time): writes `text` and `kind`, bumps the request word and wakes the
/// sandbox's command thread; returns the request's number.
uint32_t fb_sandbox_command_post(fb_sandbox_shared *shared, uint32_t kind, const char *text);
/// Foldback's side: waits at most `timeoutNs` for request `seq`'s answer; 1 with the status and the answer's text copied to
/// `text` (`capacity` bytes), 0 on timeout.
int fb_sandbox_command_wait(fb_sandbox_shared *shared, uint32_t seq, int64_t timeoutNs, int32_t *status, char *text, uint32_t capacity);
/// The sandbox's command thread: waits at most `timeoutNs` for a request newer than `*seen`; 1 with `*seen`, the kind and
/// its text (copied to `text`) set, 0 on timeout.
int fb_sandbox_command_take(fb_sandbox_shared *shared, uint32_t *seen, int64_t timeoutNs, uint32_t *kind, char *text, uint32_t capacity);
/// The sandbox's command thread: answers request `seq` with `status` (0: done) and `text`, and wakes Foldback.
void fb_sandbox_command_answer(fb_sandbox_shared *shared, uint32_t seq, int32_t status, const char *text);
/// The last request's number (a new sandbox starts serving after it).
uint32_t fb_sandbox_command_latest(const fb_sandbox_shared *shared);

/// The calling process's soft RLIMIT_MEMLOCK (bytes) and RLIMIT_RTTIME (µs); UINT64_MAX for unlimited. Non-realtime.
void fb_sandbox_limits(uint64_t *memlock, uint64_t *rttime);

/// Foldback's realtime record of a group of sandboxed units sharing one sandbox (`isolation = "strip"`): the cycle the
/// group's first unit last exchanged and whether the sandbox delivered it; the units after it read their outputs from it.
typedef struct {
    uint32_t stamp;
    int32_t result;
} fb_sandbox_group;

/// Foldback's realtime record of one sandboxed unit (allocated by the unit, read by the audio thread).
typedef struct {
    fb_sandbox_shared *shared;
    /// The group the unit belongs to (NULL: a sandbox of its own), its place in it (0: the unit that exchanges the cycle),
    /// where its outputs and controls start in the channel, and the group's stamp it last used.
    fb_sandbox_group *group;
    uint32_t member;
    uint32_t outputOffset;
    uint32_t parameterOffset;
    uint32_t seenStamp;
    uint32_t inputChannels;
    uint32_t outputChannels;
    /// FB_SANDBOX_BYPASS or FB_SANDBOX_MUTE.
    uint32_t onFault;
    /// The wait for the sandbox ends this fraction of the cycle's period after it starts (live)…
    double deadlineFraction;
    double sampleRate;
    /// …or, when > 0, after this many nanoseconds (offline rendering, where no period exists).
    int64_t fixedTimeoutNs;
    /// The fade from the fallback back to the sandbox's output: its length and the frames of it played.
    uint32_t fadeFrames;
    uint32_t fadePosition;
    /// The request fb_sandbox_post made at the start of this chunk (0: none), its frames, and when it was made and its
    /// deadline (CLOCK_MONOTONIC ns): fb_sandbox_process collects it instead of posting again.
    uint32_t posted;
    uint32_t postedFrames;
    int64_t postedAtNs;
    int64_t postedDeadlineNs;
} fb_sandbox_unit;

/// One cycle of a sandboxed unit (Foldback's audio thread): when the sandbox is ready and idle, copies the inputs in,
/// wakes it (FUTEX_WAKE) and waits for its outputs until the deadline (FUTEX_WAIT with a timeout); a late, absent or
/// garbage-producing sandbox gives the fallback (`onFault`) for this cycle. Returns 1 when the sandbox's output was used.
/// In a group, the first unit exchanges the whole chain's cycle; each later unit copies its own outputs from that same
/// cycle, or gives its fallback when the exchange failed or did not happen this cycle.
int fb_sandbox_process(fb_sandbox_unit *unit, const float *const *inputs, float *const *outputs, uint32_t frames);
/// The start of a chunk (Foldback's audio thread, before the engine renders anything): when the unit's input is already
/// known then (the first unit of a strip reading its input ports), copies it in and wakes the sandbox as
/// fb_sandbox_process would, so the sandbox works while the engine renders the rest; fb_sandbox_process then only
/// collects, with the deadline counted from this post. Nothing when the sandbox is not ready or still busy with a late
/// cycle (the unit then exchanges at its place as before), or for a later unit of a group. Realtime.
void fb_sandbox_post(fb_sandbox_unit *unit, const float *const *inputs, uint32_t frames);
/// Cycles collected from a post, and the wall time Foldback's thread spent waiting for the sandbox in all (ns, from the
/// unit's place in the chain to its output, delivered or not).
uint64_t fb_sandbox_posted_cycles(const fb_sandbox_shared *shared);
uint64_t fb_sandbox_wait_total_ns(const fb_sandbox_shared *shared);
/// When the sandbox took its last request (its serving thread woke with it) and when Foldback's thread last reached the
/// unit's place to collect or exchange (CLOCK_MONOTONIC ns, one clock for both processes).
int64_t fb_sandbox_taken_at_ns(const fb_sandbox_shared *shared);
int64_t fb_sandbox_reached_at_ns(const fb_sandbox_shared *shared);
/// Sets the unit's control `index` (its place in the channel's controls, after the group's earlier units'). Realtime.
void fb_sandbox_unit_set_parameter(fb_sandbox_unit *unit, uint32_t index, float value);

#ifdef __cplusplus
}
#endif
#endif
