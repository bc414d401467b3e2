// Reads the LD_PRELOAD allocation counter from the CLI when it is loaded (weak symbols). Non-realtime.
#include "CFoldback.h"

__attribute__((weak)) int64_t fb_alloc_counter_audio_allocations(void);
__attribute__((weak)) int64_t fb_alloc_counter_audio_frees(void);
__attribute__((weak)) void fb_alloc_counter_reset(void);

int fb_alloc_probe_available(void) {
    return fb_alloc_counter_audio_allocations && fb_alloc_counter_audio_frees && fb_alloc_counter_reset;
}

int64_t fb_alloc_probe_audio_calls(void) {
    if (!fb_alloc_probe_available()) return -1;
    return fb_alloc_counter_audio_allocations() + fb_alloc_counter_audio_frees();
}

void fb_alloc_probe_reset(void) {
    if (fb_alloc_probe_available()) fb_alloc_counter_reset();
}
