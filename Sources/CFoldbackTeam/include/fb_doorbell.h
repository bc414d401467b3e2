// A doorbell: the audio thread rings (one FUTEX_WAKE, only when the worker sleeps), a worker waits with a timeout. Realtime: fb_doorbell_ring.
// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef FB_DOORBELL_H
#define FB_DOORBELL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fb_doorbell fb_doorbell;

/// A doorbell, nobody asleep. Non-realtime (allocates); NULL when out of memory.
fb_doorbell *fb_doorbell_create(void);
/// Frees it; nobody may wait on it or ring it any more.
void fb_doorbell_destroy(fb_doorbell *bell);

/// Any thread, the audio thread too: counts a ring and, only if the worker announced it sleeps, makes one
/// FUTEX_WAKE (which never blocks and takes no lock). Call after publishing the work (release or stronger).
void fb_doorbell_ring(fb_doorbell *bell);

/// The worker: the rings so far (pass to fb_doorbell_wait after looking for work).
uint32_t fb_doorbell_rings(fb_doorbell *bell);

/// The worker: sleeps until a ring after `seen` or `timeoutNs` nanoseconds, whichever is first (at once if one
/// came already). Non-realtime.
void fb_doorbell_wait(fb_doorbell *bell, uint32_t seen, int64_t timeoutNs);

#ifdef __cplusplus
}
#endif

#endif
