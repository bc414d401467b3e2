// Reads the preloaded allocation counter's audio-path totals, for `foldback run` to report at exit. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "CFoldback.h"

/// Resolved only when libFoldbackAllocCounter.so is preloaded (weak, as in realtime.c, so the
/// answer says whether fb_realtime_cycle really reports to the counter).
__attribute__((weak)) void fb_alloc_counter_enter_audio(void);
__attribute__((weak)) int64_t fb_alloc_counter_audio_allocations(void);
__attribute__((weak)) int64_t fb_alloc_counter_audio_frees(void);

int fb_audio_allocation_counts(int64_t *allocations, int64_t *frees) {
    if (!fb_alloc_counter_enter_audio || !fb_alloc_counter_audio_allocations || !fb_alloc_counter_audio_frees) {
        return 0;
    }
    *allocations = fb_alloc_counter_audio_allocations();
    *frees = fb_alloc_counter_audio_frees();
    return 1;
}
