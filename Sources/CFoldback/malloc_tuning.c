// glibc malloc tuning a long show needs (arena cap, giving free pages back), which Swift's Glibc module does not export. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "CFoldback.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int fb_malloc_limit_arenas(int count) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    return count > 0 && mallopt(M_ARENA_MAX, count) == 1 ? 1 : 0;
#else
    (void)count;
    return 0;
#endif
}

int fb_malloc_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
