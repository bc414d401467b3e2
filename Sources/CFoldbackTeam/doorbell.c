// The doorbell between the audio thread and one worker (fb_doorbell.h). Realtime: fb_doorbell_ring.
// SPDX-License-Identifier: GPL-3.0-or-later
// The ring is a FUTEX_WAKE (fb_futex.h), made only when the worker announced it sleeps.
#define _GNU_SOURCE
#include "fb_doorbell.h"
#include "fb_futex.h"

#include <stdatomic.h>
#include <stdlib.h>

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
    fb_futex_wake(&bell->rings, 0);
}

uint32_t fb_doorbell_rings(fb_doorbell *bell) { return atomic_load_explicit(&bell->rings, memory_order_acquire); }

void fb_doorbell_wait(fb_doorbell *bell, uint32_t seen, int64_t timeoutNs) {
    atomic_store_explicit(&bell->sleeping, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&bell->rings, memory_order_seq_cst) == seen) fb_futex_wait(&bell->rings, seen, timeoutNs, 0);
    atomic_store_explicit(&bell->sleeping, 0, memory_order_seq_cst);
}
