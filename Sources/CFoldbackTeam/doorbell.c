// The doorbell between the audio thread and one worker (fb_doorbell.h). Realtime: fb_doorbell_ring.
// SPDX-License-Identifier: GPL-3.0-or-later
// The ring is FUTEX_WAKE through syscall(2), made only when the worker announced it sleeps; like the render team's
// wake (render_team.c) it sits inside __rtsan_disable/__rtsan_enable, since RealtimeSanitizer reports every
// syscall(2) and this one never blocks.
#define _GNU_SOURCE
#include "fb_doorbell.h"
#include "fb_realtime_scope.h"

#include <limits.h>
#include <stdlib.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/// `rings` counts rings; `sleeping` is set while the worker waits (a Dekker pair, both seq_cst: no ring is lost).
struct fb_doorbell {
    _Atomic uint32_t rings;
    _Atomic uint32_t sleeping;
};

fb_doorbell *fb_doorbell_create(void) { return calloc(1, sizeof(fb_doorbell)); }

void fb_doorbell_destroy(fb_doorbell *bell) { free(bell); }

void fb_doorbell_ring(fb_doorbell *bell) {
    atomic_fetch_add_explicit(&bell->rings, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&bell->sleeping, memory_order_seq_cst) == 0) return;
#ifdef FB_RTSAN
    __rtsan_disable();
#endif
    syscall(SYS_futex, (uint32_t *)&bell->rings, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#ifdef FB_RTSAN
    __rtsan_enable();
#endif
}

uint32_t fb_doorbell_rings(fb_doorbell *bell) { return atomic_load_explicit(&bell->rings, memory_order_acquire); }

void fb_doorbell_wait(fb_doorbell *bell, uint32_t seen, int64_t timeoutNs) {
    atomic_store_explicit(&bell->sleeping, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&bell->rings, memory_order_seq_cst) == seen) {
        struct timespec timeout = {.tv_sec = timeoutNs / 1000000000, .tv_nsec = timeoutNs % 1000000000};
        syscall(SYS_futex, (uint32_t *)&bell->rings, FUTEX_WAIT_PRIVATE, seen, &timeout, NULL, 0);
    }
    atomic_store_explicit(&bell->sleeping, 0, memory_order_seq_cst);
}
