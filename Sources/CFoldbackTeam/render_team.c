// The render team: lock-free sharing of a cycle's work items between the audio thread and workers, and
// SPDX-License-Identifier: GPL-3.0-or-later
// the futex the idle workers sleep on. Realtime: begin/run/end on the audio thread, the claim loop on workers.
//
// Wake-up: a 32-bit `epoch` word, odd while a cycle runs. Within a cycle workers spin on the claim word
// (bounded by the cycle, and by IN_CYCLE_SPIN_NS); once a cycle ends they spin IDLE_SPIN_NS and then
// sleep in FUTEX_WAIT on `epoch`, with a timeout that ends EARLY_WAKE_NS before the next cycle is due
// (when the cycles they saw start at a steady period), after which they spin until it starts.
// fb_team_begin_cycle makes `epoch` odd and, only if a worker announced it sleeps (`sleepers`, a Dekker
// pair with `epoch`, both seq_cst), makes one FUTEX_WAKE. FUTEX_WAKE
// never blocks and takes no user-space lock; it is the one syscall on the audio path, made through
// syscall(2) inside __rtsan_disable/__rtsan_enable so RealtimeSanitizer, which reports every syscall(2),
// lets this one pass. Nothing waits on a worker that has not claimed an item: the callback thread claims
// items as well, so a worker still asleep (or descheduled) costs time, never output.
#define _GNU_SOURCE
#include "CFoldbackTeam.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <pmmintrin.h>
#include <xmmintrin.h>
#define FB_PAUSE() _mm_pause()
#elif defined(__aarch64__)
#define FB_PAUSE() __asm__ __volatile__("yield")
#else
#define FB_PAUSE() ((void)0)
#endif

#include "fb_futex.h"
#include "fb_realtime_scope.h"

enum {
    STAGE_SLOTS = 4,
    GUIDED_SHARE_DIVISOR = 2,
    /// The longest run one claim takes: what the other lanes wait for when the claiming thread is preempted.
    MAX_CLAIM_RUN = 8,
    MAX_LANES = 64,
};
/// A worker spins this long after a cycle ends before it sleeps, and at most this long inside a cycle without work.
static const int64_t IDLE_SPIN_NS = 20 * 1000;
static const int64_t IN_CYCLE_SPIN_NS = 2 * 1000 * 1000;
/// A worker that has seen cycles start at a steady period wakes this long before the next one is due and
/// spins until it starts (or until this long after it was due), so it is at work when the cycle begins
/// instead of one futex wake-up (tens of microseconds on a loaded or virtual machine) later.
static const int64_t EARLY_WAKE_NS = 100 * 1000;

/// One published stage; slots are reused round robin, so a late reader checks `seq`.
typedef struct {
    _Atomic(fb_team_item_fn) fn;
    _Atomic(void *) job;
    _Atomic uint32_t count;
    _Atomic uint32_t seq;
} fb_stage;

struct fb_team {
    uint32_t lanes;
    /// Stages published so far (written by the callback thread only).
    uint32_t seq;
    _Alignas(64) _Atomic uint32_t epoch;
    _Atomic uint32_t sleepers;
    _Atomic uint32_t stop;
    /// The current stage's claim word: sequence number << 32 | next item.
    _Alignas(64) _Atomic uint64_t claim;
    _Alignas(64) _Atomic uint32_t done;
    _Alignas(64) fb_stage stages[STAGE_SLOTS];
    _Atomic uint64_t wakes;
    _Atomic uint64_t cycles;
    _Alignas(64) _Atomic uint64_t items[MAX_LANES];
    pthread_t local[MAX_LANES];
    uint32_t localCount;
};

fb_team *fb_team_create(uint32_t lanes) {
    if (lanes < 1 || lanes > MAX_LANES) return NULL;
    fb_team *team = aligned_alloc(64, (sizeof(fb_team) + 63) / 64 * 64);
    if (!team) return NULL;
    team->lanes = lanes;
    team->seq = 0;
    atomic_init(&team->epoch, 0);
    atomic_init(&team->sleepers, 0);
    atomic_init(&team->stop, 0);
    atomic_init(&team->claim, 0);
    atomic_init(&team->done, 0);
    for (int slot = 0; slot < STAGE_SLOTS; slot++) {
        atomic_init(&team->stages[slot].fn, NULL);
        atomic_init(&team->stages[slot].job, NULL);
        atomic_init(&team->stages[slot].count, 0);
        atomic_init(&team->stages[slot].seq, 0);
    }
    atomic_init(&team->wakes, 0);
    atomic_init(&team->cycles, 0);
    for (uint32_t lane = 0; lane < MAX_LANES; lane++) atomic_init(&team->items[lane], 0);
    team->localCount = 0;
    return team;
}

void fb_team_destroy(fb_team *team) { free(team); }

uint32_t fb_team_lanes(const fb_team *team) { return team->lanes; }

/// The deliberate FUTEX_WAKE of the audio thread (see the file comment).
static void fb_team_wake(fb_team *team) { fb_futex_wake(&team->epoch, 0); }

void fb_team_begin_cycle(fb_team *team) {
    atomic_fetch_add_explicit(&team->epoch, 1, memory_order_seq_cst);   // odd: a cycle runs
    atomic_fetch_add_explicit(&team->cycles, 1, memory_order_relaxed);
    if (atomic_load_explicit(&team->sleepers, memory_order_seq_cst) > 0) {
        fb_team_wake(team);
        atomic_fetch_add_explicit(&team->wakes, 1, memory_order_relaxed);
    }
}

void fb_team_end_cycle(fb_team *team) {
    atomic_fetch_add_explicit(&team->epoch, 1, memory_order_release);   // even: idle
}

/// Claims and runs items of the current stage until none is left; returns how many this lane ran. Items
/// are claimed in runs of consecutive ones, shrinking as the stage empties, so neighbouring strips (whose
/// meters and state share cache lines) mostly stay on one thread and the lanes finish together.
static uint32_t fb_team_take(fb_team *team, uint32_t lane) {
    uint32_t ran = 0;
    uint64_t word = atomic_load_explicit(&team->claim, memory_order_acquire);
    for (;;) {
        uint32_t seq = (uint32_t)(word >> 32), next = (uint32_t)word;
        fb_stage *stage = &team->stages[seq % STAGE_SLOTS];
        fb_team_item_fn fn = atomic_load_explicit(&stage->fn, memory_order_relaxed);
        void *job = atomic_load_explicit(&stage->job, memory_order_relaxed);
        uint32_t count = atomic_load_explicit(&stage->count, memory_order_relaxed);
        if (atomic_load_explicit(&stage->seq, memory_order_acquire) != seq || next >= count || !fn) break;
        // Guided: each claim takes a 1/(2·lanes) share of what is left (at least one item), so the first
        // claims keep long runs of neighbours on one thread and the last ones are single items: no lane
        // waits at the end of the stage for a long run another lane took late. No claim takes more than
        // MAX_CLAIM_RUN items: a lane preempted inside its run holds back only that run, and the other lanes
        // take everything else meanwhile.
        uint32_t share = (count - next) / (team->lanes * GUIDED_SHARE_DIVISOR);
        uint32_t take = share < 1 ? 1 : (share > MAX_CLAIM_RUN ? MAX_CLAIM_RUN : share);
        uint32_t end = count - next < take ? count : next + take;
        // The claim succeeds only if the word is unchanged, so the stage read above is the one claimed.
        if (!atomic_compare_exchange_weak_explicit(&team->claim, &word, word + (end - next), memory_order_acq_rel, memory_order_acquire)) continue;
        for (uint32_t item = next; item < end; item++) fn(job, lane, item);
        ran += end - next;
        atomic_fetch_add_explicit(&team->done, end - next, memory_order_release);
        word = atomic_load_explicit(&team->claim, memory_order_acquire);
    }
    if (ran) atomic_fetch_add_explicit(&team->items[lane], ran, memory_order_relaxed);
    return ran;
}

void fb_team_run(fb_team *team, fb_team_item_fn fn, void *job, uint32_t count) {
    if (count == 0) return;
    if (count == 1 || team->lanes == 1) {
        for (uint32_t item = 0; item < count; item++) fn(job, 0, item);
        atomic_fetch_add_explicit(&team->items[0], count, memory_order_relaxed);
        return;
    }
    uint32_t seq = ++team->seq;
    fb_stage *stage = &team->stages[seq % STAGE_SLOTS];
    atomic_store_explicit(&stage->seq, 0, memory_order_relaxed);
    atomic_store_explicit(&stage->fn, fn, memory_order_relaxed);
    atomic_store_explicit(&stage->job, job, memory_order_relaxed);
    atomic_store_explicit(&stage->count, count, memory_order_relaxed);
    atomic_store_explicit(&stage->seq, seq, memory_order_release);
    atomic_store_explicit(&team->done, 0, memory_order_relaxed);
    atomic_store_explicit(&team->claim, (uint64_t)seq << 32, memory_order_release);
    fb_team_take(team, 0);
    while (atomic_load_explicit(&team->done, memory_order_acquire) < count) FB_PAUSE();
}

/// A worker's claims, on the audio path: inside the RealtimeSanitizer scope and the allocation counter's.
static uint32_t fb_team_take_realtime(fb_team *team, uint32_t lane) FB_NONBLOCKING {
    return fb_team_take(team, lane);
}

static int64_t fb_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/// Sleeps until `epoch` moves on from `seen` (or a wake), or for at most `timeoutNs` when it is positive;
/// never misses a cycle (see the file comment).
static void fb_team_sleep(fb_team *team, uint32_t seen, int64_t timeoutNs) {
    atomic_fetch_add_explicit(&team->sleepers, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&team->epoch, memory_order_seq_cst) == seen && !atomic_load_explicit(&team->stop, memory_order_acquire)) {
        fb_futex_wait(&team->epoch, seen, timeoutNs > 0 ? timeoutNs : -1, 0);
    }
    atomic_fetch_sub_explicit(&team->sleepers, 1, memory_order_seq_cst);
}

void fb_team_enable_ftz_daz(void) {
#if defined(__x86_64__) || defined(__i386__)
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    fpcr |= (1ULL << 24);
    __asm__ __volatile__("msr fpcr, %0" : : "r"(fpcr));
#endif
}

/// When the next cycle is due, from the starts a worker has seen: `last` + a whole number of `period`s,
/// the first after `now`; 0 when the cycles have no steady period (yet, or any more).
static int64_t fb_team_next_start(int64_t last, int64_t period, int64_t now) {
    if (last == 0 || period < 2 * EARLY_WAKE_NS || period > 100 * 1000 * 1000 || now - last > 4 * period) return 0;
    return last + ((now - last) / period + 1) * period;
}

void fb_team_work(fb_team *team, uint32_t lane) {
    if (lane == 0 || lane >= team->lanes) return;
    fb_team_enable_ftz_daz();   // the same arithmetic as the callback thread: outputs stay bit-identical
    uint32_t seen = atomic_load_explicit(&team->epoch, memory_order_acquire);
    int64_t quietSince = fb_now_ns();
    int64_t lastStart = 0, period = 0;   // cycle starts as this worker saw them
    int64_t spinUntil = 0;               // a cycle is due: spin (do not sleep) until then
    uint32_t polls = 0;
    while (!atomic_load_explicit(&team->stop, memory_order_acquire)) {
        uint32_t epoch = atomic_load_explicit(&team->epoch, memory_order_acquire);
        if (epoch != seen) {
            seen = epoch;
            quietSince = fb_now_ns();
            if (epoch & 1) {   // a cycle started (seen late if this worker was asleep: the next prediction is early enough)
                period = lastStart ? quietSince - lastStart : 0;
                lastStart = quietSince;
                spinUntil = 0;
            }
        }
        if (epoch & 1) {
            if (fb_alloc_counter_enter_audio) fb_alloc_counter_enter_audio();
            uint32_t ran = fb_team_take_realtime(team, lane);
            if (fb_alloc_counter_leave_audio) fb_alloc_counter_leave_audio();
            if (ran) {
                quietSince = fb_now_ns();
                continue;
            }
        }
        FB_PAUSE();
        if (++polls % 32) continue;
        int64_t now = fb_now_ns();
        if (epoch & 1) {
            if (now - quietSince > IN_CYCLE_SPIN_NS) fb_team_sleep(team, epoch, 0);
            continue;
        }
        if (now < spinUntil || now - quietSince <= IDLE_SPIN_NS) continue;
        int64_t due = fb_team_next_start(lastStart, period, now);
        if (due && due - now > 2 * EARLY_WAKE_NS) {
            fb_team_sleep(team, epoch, due - EARLY_WAKE_NS - now);   // a cycle starting sooner wakes it as ever
            spinUntil = due + EARLY_WAKE_NS;
        } else if (due) {
            spinUntil = due + EARLY_WAKE_NS;
        } else {
            fb_team_sleep(team, epoch, 0);
        }
        quietSince = fb_now_ns();
    }
}

void fb_team_stop(fb_team *team) {
    atomic_store_explicit(&team->stop, 1, memory_order_seq_cst);
    atomic_fetch_add_explicit(&team->epoch, 2, memory_order_seq_cst);   // parity kept; any sleeper's wait fails
    fb_futex_wake(&team->epoch, 0);
}

void fb_team_restart(fb_team *team) {
    atomic_store_explicit(&team->stop, 0, memory_order_seq_cst);
}

typedef struct {
    fb_team *team;
    uint32_t lane;
} fb_local_worker;

static void *fb_team_local_main(void *argument) {
    fb_local_worker worker = *(fb_local_worker *)argument;
    free(argument);
    fb_team_work(worker.team, worker.lane);
    return NULL;
}

int fb_team_start_local_threads(fb_team *team) {
    fb_team_restart(team);
    for (uint32_t lane = 1; lane < team->lanes; lane++) {
        fb_local_worker *worker = malloc(sizeof(fb_local_worker));
        if (!worker) return -1;
        worker->team = team;
        worker->lane = lane;
        if (pthread_create(&team->local[team->localCount], NULL, fb_team_local_main, worker) != 0) {
            free(worker);
            return -1;
        }
        team->localCount++;
    }
    return 0;
}

void fb_team_join_local_threads(fb_team *team) {
    fb_team_stop(team);
    for (uint32_t index = 0; index < team->localCount; index++) pthread_join(team->local[index], NULL);
    team->localCount = 0;
}

uint64_t fb_team_wake_count(const fb_team *team) { return atomic_load_explicit(&team->wakes, memory_order_relaxed); }
uint64_t fb_team_cycle_count(const fb_team *team) { return atomic_load_explicit(&team->cycles, memory_order_relaxed); }
uint64_t fb_team_items_run(const fb_team *team, uint32_t lane) {
    return lane < team->lanes ? atomic_load_explicit(&team->items[lane], memory_order_relaxed) : 0;
}
