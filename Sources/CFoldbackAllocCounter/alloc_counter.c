// LD_PRELOAD malloc/free interposer attributing calls to the audio thread. Runs on every thread.
// SPDX-License-Identifier: GPL-3.0-or-later
// Forwards to glibc's exported __libc_* entry points, so it needs no dlsym bootstrap.
#define _GNU_SOURCE
#include "fb_alloc_counter.h"
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void __libc_free(void *pointer);

static __thread int on_audio_path = 0;
static _Atomic int64_t audio_allocations = 0;
static _Atomic int64_t audio_frees = 0;
static _Atomic int64_t first_size = -1;

static inline void count_allocation(size_t size) {
    if (__builtin_expect(on_audio_path, 0)) {
        int64_t expected = -1;
        atomic_compare_exchange_strong(&first_size, &expected, (int64_t)size);
        atomic_fetch_add_explicit(&audio_allocations, 1, memory_order_relaxed);
    }
}

void fb_alloc_counter_enter_audio(void) { on_audio_path = 1; }
void fb_alloc_counter_leave_audio(void) { on_audio_path = 0; }
int64_t fb_alloc_counter_audio_allocations(void) { return atomic_load(&audio_allocations); }
int64_t fb_alloc_counter_audio_frees(void) { return atomic_load(&audio_frees); }
int64_t fb_alloc_counter_first_size(void) { return atomic_load(&first_size); }

void fb_alloc_counter_reset(void) {
    atomic_store(&audio_allocations, 0);
    atomic_store(&audio_frees, 0);
    atomic_store(&first_size, -1);
}

void *malloc(size_t size) {
    count_allocation(size);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_allocation(count * size);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_allocation(size);
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation(size);
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    count_allocation(size);
    return __libc_valloc(size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    count_allocation(size);
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}

void free(void *pointer) {
    if (__builtin_expect(on_audio_path, 0) && pointer != NULL) {
        atomic_fetch_add_explicit(&audio_frees, 1, memory_order_relaxed);
    }
    __libc_free(pointer);
}
