// The plugin sandbox's shared region as both of CFoldbackSandbox's C files see it: the layout, and the clock and futex helpers.
// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to CFoldbackSandbox. The futex helpers are the only syscalls on the realtime paths (see sandbox_channel.c).
#ifndef FB_SANDBOX_SHARED_H
#define FB_SANDBOX_SHARED_H

#include "CFoldbackSandbox.h"

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fb_futex.h"
#include "fb_realtime_scope.h"

struct fb_sandbox_shared {
    uint32_t magic;
    uint32_t version;
    uint32_t inputChannels;
    uint32_t outputChannels;
    uint32_t maxFrames;
    uint32_t parameterCount;
    uint64_t size;
    _Alignas(64) _Atomic uint32_t request;
    _Atomic uint32_t frames;
    _Alignas(64) _Atomic uint32_t response;
    /// 1 while Foldback's thread sleeps on `response` until the deadline: only then does the sandbox wake it (see
    /// sandbox_channel.c). On `response`'s cache line, which the sandbox writes anyway.
    _Atomic uint32_t waiting;
    /// The CPU the sandbox's thread took its last request on (Foldback spins only when that is another CPU than its own).
    _Atomic uint32_t sandboxCpu;
    _Alignas(64) _Atomic uint32_t state;
    _Atomic uint32_t latency;
    _Atomic uint32_t lateInARow;
    _Atomic uint32_t garbage;
    /// Cycles in a row whose output was garbage (the first of a run asks the sandbox to reset its plugins), and the runs.
    _Atomic uint32_t garbageInARow;
    _Atomic uint32_t garbageRuns;
    _Atomic uint32_t resets;
    _Atomic uint64_t lateTotal;
    _Atomic uint64_t delivered;
    _Atomic uint64_t roundTripNs;
    /// When the sandbox finished its last cycle (CLOCK_MONOTONIC ns, one clock for both processes), and how long the last
    /// two exchanges took from Foldback's request to that: what Foldback's nap follows (not the round trip it saw, which
    /// includes the nap's own overshoot), the shorter of the two, so one slow cycle does not lengthen it.
    _Atomic int64_t doneAtNs;
    _Atomic int64_t serviceNs;
    _Atomic int64_t previousServiceNs;
    /// Cycles collected from a post (fb_sandbox_post), Foldback's wall time waiting in all, when the sandbox took its
    /// last request and when Foldback last reached the unit (see CFoldbackSandbox.h).
    _Atomic uint64_t postedCycles;
    _Atomic uint64_t waitNs;
    _Atomic int64_t takenAtNs;
    _Atomic int64_t reachedAtNs;
    _Atomic uint32_t countsAllocations;
    _Atomic uint64_t sandboxAllocations;
    _Atomic uint64_t sandboxFrees;
    /// The plugins' control outputs (meters: a level, a gain reduction) as float bits, in the chain's order, written by the
    /// sandbox after each cycle and read by Foldback's meter readers (fb_sandbox_meter).
    _Alignas(64) _Atomic uint32_t meters[FB_SANDBOX_METERS];
    /// Requests to the sandbox's command thread (non-realtime on both sides).
    _Alignas(64) _Atomic uint32_t command;
    _Alignas(64) _Atomic uint32_t commandDone;
    uint32_t commandKind;
    int32_t commandStatus;
    char commandText[FB_SANDBOX_TEXT_BYTES];
    /// Controls (float bits), the restored values (float bits), then the audio, each 64-byte aligned.
    _Alignas(64) _Atomic uint32_t parameters[];
};

static inline size_t fb_align64(size_t value) { return (value + 63) / 64 * 64; }

static inline size_t fb_parameters_bytes(uint32_t count) { return fb_align64((size_t)count * sizeof(uint32_t)); }

static inline size_t fb_sandbox_size(uint32_t in, uint32_t out, uint32_t maxFrames, uint32_t parameterCount) {
    return sizeof(fb_sandbox_shared) + 2 * fb_parameters_bytes(parameterCount) + (size_t)(in + out) * maxFrames * sizeof(float);
}

static inline float *fb_audio(fb_sandbox_shared *shared) {
    return (float *)((char *)shared->parameters + 2 * fb_parameters_bytes(shared->parameterCount));
}

static inline _Atomic uint32_t *fb_restored(fb_sandbox_shared *shared) {
    return (_Atomic uint32_t *)((char *)shared->parameters + fb_parameters_bytes(shared->parameterCount));
}

static inline int64_t fb_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/// FUTEX_WAKE on a shared word (never blocks).
static inline void fb_sandbox_wake(_Atomic uint32_t *word) { fb_futex_wake(word, 1); }

/// FUTEX_WAIT on a shared word while `*word == value`, for at most `timeoutNs` (relative): the bounded wait sandbox_channel.c explains.
static inline void fb_sandbox_wait(_Atomic uint32_t *word, uint32_t value, int64_t timeoutNs) { fb_futex_wait(word, value, timeoutNs, 1); }

/// A float kept as its bits in an atomic word (controls, restored values).
static inline float fb_load_float(_Atomic uint32_t *word, memory_order order) {
    uint32_t bits = atomic_load_explicit(word, order);
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static inline void fb_store_float(_Atomic uint32_t *word, float value, memory_order order) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    atomic_store_explicit(word, bits, order);
}

#define FB_COUNTER(name, type, field) \
    type name(const fb_sandbox_shared *shared) { return atomic_load_explicit(&((fb_sandbox_shared *)shared)->field, memory_order_relaxed); }

#endif
