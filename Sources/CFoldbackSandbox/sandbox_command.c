// The sandbox's side channels: its serve cycle in a realtime scope, allocation counts, restored values, Foldback's requests.
// SPDX-License-Identifier: GPL-3.0-or-later
// Realtime: fb_sandbox_serve_cycle (the sandbox's audio thread). The command calls (save the plugin's state) and the
// restored control values are non-realtime on both sides.
#define _GNU_SOURCE
#include "CFoldbackSandbox.h"

#include <math.h>
#include <string.h>

#include "fb_realtime_scope.h"
#include "sandbox_shared.h"

/// The preloaded allocation counter's totals (weak: absent when it is not preloaded).
__attribute__((weak)) int64_t fb_alloc_counter_audio_allocations(void);
__attribute__((weak)) int64_t fb_alloc_counter_audio_frees(void);

static void fb_sandbox_run_cycle(fb_sandbox_shared *shared, uint32_t seq, uint32_t frames, fb_sandbox_cycle_fn cycle,
                                 void *context) FB_NONBLOCKING {
    cycle(context, frames);
    fb_sandbox_serve_done(shared, seq);
}

int fb_sandbox_serve_cycle(fb_sandbox_shared *shared, uint32_t *seen, int64_t timeoutNs, fb_sandbox_cycle_fn cycle, void *context) {
    uint32_t frames = 0;
    if (!fb_sandbox_serve_wait(shared, seen, &frames, timeoutNs)) return 0;
    if (frames > shared->maxFrames) frames = shared->maxFrames;
    if (fb_alloc_counter_enter_audio) fb_alloc_counter_enter_audio();
    fb_sandbox_run_cycle(shared, *seen, frames, cycle, context);
    if (fb_alloc_counter_leave_audio) fb_alloc_counter_leave_audio();
    if (fb_alloc_counter_audio_allocations && fb_alloc_counter_audio_frees) {
        atomic_store_explicit(&shared->sandboxAllocations, (uint64_t)fb_alloc_counter_audio_allocations(), memory_order_relaxed);
        atomic_store_explicit(&shared->sandboxFrees, (uint64_t)fb_alloc_counter_audio_frees(), memory_order_relaxed);
        atomic_store_explicit(&shared->countsAllocations, 1, memory_order_relaxed);
    }
    return 1;
}

int fb_sandbox_counts_allocations(const fb_sandbox_shared *shared) {
    return (int)atomic_load_explicit(&((fb_sandbox_shared *)shared)->countsAllocations, memory_order_relaxed);
}
FB_COUNTER(fb_sandbox_allocations, uint64_t, sandboxAllocations)
FB_COUNTER(fb_sandbox_frees, uint64_t, sandboxFrees)

float fb_sandbox_restored_value(const fb_sandbox_shared *shared, uint32_t index) {
    if (index >= shared->parameterCount) return NAN;
    return fb_load_float(&fb_restored((fb_sandbox_shared *)shared)[index], memory_order_acquire);
}

void fb_sandbox_set_restored_value(fb_sandbox_shared *shared, uint32_t index, float value) {
    if (index >= shared->parameterCount) return;
    fb_store_float(&fb_restored(shared)[index], value, memory_order_release);
}

static void fb_copy_text(char *to, const char *from, uint32_t capacity) {
    if (capacity == 0) return;
    size_t length = from ? strnlen(from, capacity - 1) : 0;
    memcpy(to, from ? from : "", length);
    to[length] = 0;
}

uint32_t fb_sandbox_command_post(fb_sandbox_shared *shared, uint32_t kind, const char *text) {
    fb_copy_text(shared->commandText, text, FB_SANDBOX_TEXT_BYTES);
    shared->commandKind = kind;
    uint32_t seq = atomic_load_explicit(&shared->command, memory_order_relaxed) + 1;
    atomic_store_explicit(&shared->command, seq, memory_order_release);
    fb_sandbox_wake(&shared->command);
    return seq;
}

int fb_sandbox_command_wait(fb_sandbox_shared *shared, uint32_t seq, int64_t timeoutNs, int32_t *status, char *text, uint32_t capacity) {
    int64_t deadline = fb_now_ns() + timeoutNs;
    for (;;) {
        uint32_t done = atomic_load_explicit(&shared->commandDone, memory_order_acquire);
        if (done == seq) {
            *status = shared->commandStatus;
            fb_copy_text(text, shared->commandText, capacity < FB_SANDBOX_TEXT_BYTES ? capacity : FB_SANDBOX_TEXT_BYTES);
            return 1;
        }
        int64_t left = deadline - fb_now_ns();
        if (left <= 0) return 0;
        fb_sandbox_wait(&shared->commandDone, done, left < 10000000 ? left : 10000000);
    }
}

int fb_sandbox_command_take(fb_sandbox_shared *shared, uint32_t *seen, int64_t timeoutNs, uint32_t *kind, char *text, uint32_t capacity) {
    int64_t deadline = fb_now_ns() + timeoutNs;
    for (;;) {
        uint32_t request = atomic_load_explicit(&shared->command, memory_order_acquire);
        if (request != *seen) {
            *seen = request;
            *kind = shared->commandKind;
            fb_copy_text(text, shared->commandText, capacity < FB_SANDBOX_TEXT_BYTES ? capacity : FB_SANDBOX_TEXT_BYTES);
            return 1;
        }
        int64_t left = deadline - fb_now_ns();
        if (left <= 0) return 0;
        fb_sandbox_wait(&shared->command, request, left);
    }
}

void fb_sandbox_command_answer(fb_sandbox_shared *shared, uint32_t seq, int32_t status, const char *text) {
    fb_copy_text(shared->commandText, text, FB_SANDBOX_TEXT_BYTES);
    shared->commandStatus = status;
    atomic_store_explicit(&shared->commandDone, seq, memory_order_release);
    fb_sandbox_wake(&shared->commandDone);
}

uint32_t fb_sandbox_command_latest(const fb_sandbox_shared *shared) {
    return atomic_load_explicit(&((fb_sandbox_shared *)shared)->command, memory_order_acquire);
}
