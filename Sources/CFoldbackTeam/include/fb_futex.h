// The futex calls of Foldback's C code (render team, doorbell, plugin sandbox): a wake that never blocks and a wait
// bounded by a timeout, both told to RealtimeSanitizer as meant. Realtime: the wake and the bounded wait on audio threads.
// SPDX-License-Identifier: GPL-3.0-or-later
// RealtimeSanitizer reports every syscall(2); these are the deliberate ones: FUTEX_WAKE takes no user-space lock and
// never blocks, and a FUTEX_WAIT on the audio path always carries a deadline inside the period (the sandbox's). Each
// call sits inside __rtsan_disable/__rtsan_enable. `shared` picks the shared futex (a word in a MAP_SHARED mapping that
// another process waits on) instead of the private one.
#ifndef FB_FUTEX_H
#define FB_FUTEX_H

#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fb_realtime_scope.h"

static inline int fb_futex_op(int op, int shared) { return shared ? op : (op | FUTEX_PRIVATE_FLAG); }

/// FUTEX_WAKE of every waiter on `word`.
static inline void fb_futex_wake(_Atomic uint32_t *word, int shared) {
#ifdef FB_RTSAN
    __rtsan_disable();
#endif
    syscall(SYS_futex, (uint32_t *)word, fb_futex_op(FUTEX_WAKE, shared), INT_MAX, NULL, NULL, 0);
#ifdef FB_RTSAN
    __rtsan_enable();
#endif
}

/// FUTEX_WAIT while `*word == value`, for at most `timeoutNs` (relative), or without a timeout when it is negative
/// (idle worker threads only, never an audio thread).
static inline void fb_futex_wait(_Atomic uint32_t *word, uint32_t value, int64_t timeoutNs, int shared) {
    struct timespec timeout = {.tv_sec = timeoutNs / 1000000000, .tv_nsec = timeoutNs % 1000000000};
#ifdef FB_RTSAN
    __rtsan_disable();
#endif
    syscall(SYS_futex, (uint32_t *)word, fb_futex_op(FUTEX_WAIT, shared), value, timeoutNs < 0 ? NULL : &timeout, NULL, 0);
#ifdef FB_RTSAN
    __rtsan_enable();
#endif
}

#endif
