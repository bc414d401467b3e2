// Monotonic-clock timing of the JACK process callback into a static histogram. Realtime thread (start/stop); readers non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "CFoldback.h"
#include <stdatomic.h>
#include <time.h>

#define FB_TIMING_BUCKETS 8192   /* 1 µs each; the last one collects everything longer */

static _Atomic int timing_enabled;
static _Atomic uint64_t timing_buckets[FB_TIMING_BUCKETS];
static _Atomic uint64_t timing_count;
static _Atomic uint64_t timing_max_ns;

static uint64_t now_ns(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);   /* vDSO: no syscall, no lock */
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

uint64_t fb_callback_timing_start(void) {
    if (!atomic_load_explicit(&timing_enabled, memory_order_relaxed)) return 0;
    return now_ns();
}

void fb_callback_timing_stop(uint64_t start) {
    if (start == 0) return;
    uint64_t elapsed = now_ns() - start;
    uint64_t bucket = elapsed / 1000u;
    if (bucket >= FB_TIMING_BUCKETS) bucket = FB_TIMING_BUCKETS - 1;
    atomic_fetch_add_explicit(&timing_buckets[bucket], 1, memory_order_relaxed);
    /* One writer (the process thread), so a plain compare-then-store is enough. */
    if (elapsed > atomic_load_explicit(&timing_max_ns, memory_order_relaxed))
        atomic_store_explicit(&timing_max_ns, elapsed, memory_order_relaxed);
    atomic_fetch_add_explicit(&timing_count, 1, memory_order_release);
}

void fb_callback_timing_enable(int enabled) {
    atomic_store_explicit(&timing_enabled, enabled, memory_order_relaxed);
}

void fb_callback_timing_reset(void) {
    for (int bucket = 0; bucket < FB_TIMING_BUCKETS; bucket++)
        atomic_store_explicit(&timing_buckets[bucket], 0, memory_order_relaxed);
    atomic_store_explicit(&timing_max_ns, 0, memory_order_relaxed);
    atomic_store_explicit(&timing_count, 0, memory_order_release);
}

uint64_t fb_callback_timing_count(void) {
    return atomic_load_explicit(&timing_count, memory_order_acquire);
}

uint64_t fb_callback_timing_max_ns(void) {
    return atomic_load_explicit(&timing_max_ns, memory_order_relaxed);
}

uint64_t fb_callback_timing_percentile_ns(double fraction) {
    uint64_t total = 0;
    for (int bucket = 0; bucket < FB_TIMING_BUCKETS; bucket++)
        total += atomic_load_explicit(&timing_buckets[bucket], memory_order_relaxed);
    if (total == 0) return 0;
    uint64_t wanted = (uint64_t)(fraction * (double)total + 0.999999);
    uint64_t seen = 0;
    for (int bucket = 0; bucket < FB_TIMING_BUCKETS; bucket++) {
        seen += atomic_load_explicit(&timing_buckets[bucket], memory_order_relaxed);
        if (seen >= wanted) return (uint64_t)(bucket + 1) * 1000u;   /* the bucket's upper edge */
    }
    return (uint64_t)FB_TIMING_BUCKETS * 1000u;
}
