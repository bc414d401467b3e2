// FTZ/DAZ and the RealtimeSanitizer-checked cycle wrapper. Realtime thread.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "CFoldback.h"
#include "CFoldbackTeam.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#include <pmmintrin.h>
#endif

#include "fb_realtime_scope.h"

void fb_realtime_enable_ftz_daz(void) {
    fb_team_enable_ftz_daz();
}

int fb_realtime_ftz_daz_enabled(void) {
#if defined(__x86_64__) || defined(__i386__)
    return _MM_GET_FLUSH_ZERO_MODE() == _MM_FLUSH_ZERO_ON
        && _MM_GET_DENORMALS_ZERO_MODE() == _MM_DENORMALS_ZERO_ON;
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    return (fpcr & (1ULL << 24)) != 0;
#else
    return 0;
#endif
}

static void fb_run_cycle(fb_cycle_fn cycle, void *context, uint32_t frames) FB_NONBLOCKING {
    cycle(context, frames);
}

void fb_realtime_cycle(fb_cycle_fn cycle, void *context, uint32_t frames) {
    if (fb_alloc_counter_enter_audio) fb_alloc_counter_enter_audio();
    fb_run_cycle(cycle, context, frames);
    if (fb_alloc_counter_leave_audio) fb_alloc_counter_leave_audio();
}

int fb_realtime_sanitizer_enabled(void) {
#ifdef FB_RTSAN
    return 1;
#else
    return 0;
#endif
}
