// LD_PRELOAD allocation counter: counts malloc-family calls and frees made while the calling
// SPDX-License-Identifier: GPL-3.0-or-later
// thread is inside fb_realtime_cycle (the audio path). Runs on every thread, realtime included.
#ifndef FB_ALLOC_COUNTER_H
#define FB_ALLOC_COUNTER_H
#include <stdint.h>

/// Marks the calling thread as on the audio path (called by fb_realtime_cycle).
void fb_alloc_counter_enter_audio(void);
/// Marks the calling thread as off the audio path.
void fb_alloc_counter_leave_audio(void);
/// Allocations (malloc, calloc, realloc, memalign family) counted on the audio path.
int64_t fb_alloc_counter_audio_allocations(void);
/// Frees counted on the audio path.
int64_t fb_alloc_counter_audio_frees(void);
/// Size of the first allocation counted on the audio path, or -1.
int64_t fb_alloc_counter_first_size(void);
/// Resets all counters to zero.
void fb_alloc_counter_reset(void);
#endif
