// The plugin sandbox's shared-memory channel: layout, mapping, and the two sides of one cycle's hand-over.
// SPDX-License-Identifier: GPL-3.0-or-later
// Realtime: fb_sandbox_process on Foldback's audio thread, fb_sandbox_serve_wait/done on the sandbox's. The rest is setup.
//
// Hand-over: two 32-bit words. Foldback writes the inputs, then `request` = seq (release) and one FUTEX_WAKE; the sandbox
// runs its plugins, writes the outputs, then `response` = seq. Foldback waits on `response` in three steps, each ending at
// the deadline inside the period at the latest (never longer), so a crashed or hung sandbox costs its own unit that cycle
// and nothing else: (1) when the last round trip was long (a chain of plugins) and the sandbox runs on another CPU, a nap
// of most of it (FUTEX_WAIT with that timeout, unannounced: the sandbox does not wake it, the nap's own timer on
// Foldback's CPU does); (2) a short spin (on the same CPU it would only hold the sandbox off); (3) it sets `waiting` and
// sleeps in FUTEX_WAIT until the deadline; the sandbox issues its FUTEX_WAKE only when it sees `waiting` set. A wake
// across CPUs costs both sides an interrupt (an IPI, on a VM a trap to the hypervisor), so most cycles now have none on
// the way back. `waiting` and `response` are stored and read sequentially consistent on both sides (Foldback: set
// `waiting`, read `response`; the sandbox: set `response`, read `waiting`), so one of them always sees the other's
// store: no wake-up is lost (SandboxChannelTests' stress), and the futex's own value check covers the rest. When the
// unit's input is known at the start of the chunk, Foldback posts the request then (fb_sandbox_post) and only collects at
// the unit's place (fb_sandbox_process), the deadline counted from the post, so the sandbox works while Foldback renders. A sandbox still busy with a late request (response != request) is not
// given a new one: its unit falls back until it catches up or the supervisor restarts it. The futex words live in a
// MAP_SHARED memfd, so both sides use the shared (not _PRIVATE) futex operations.
//
// The two futex syscalls are the only syscalls on Foldback's audio path here: FUTEX_WAKE never blocks, FUTEX_WAIT is
// bounded by its timeout (the deadline), on locked, pre-faulted memory. RealtimeSanitizer reports every syscall(2), so
// both run inside __rtsan_disable/__rtsan_enable: a wait with a deadline inside the period is the design, not a bug.
#define _GNU_SOURCE
#include "CFoldbackSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fb_realtime_scope.h"
#include "sandbox_shared.h"

enum { FB_SANDBOX_MAGIC = 0x46425358u, FB_SANDBOX_VERSION = 6, FB_SANDBOX_MAX_CHANNELS = 64 };
/// +24 dBFS: a sample beyond this is garbage, as a NaN is.
static const float FB_SANDBOX_ABSURD = 15.848932f;
/// Foldback spins this long on `response` before it sleeps in FUTEX_WAIT: a short round trip ends within it. When the
/// last round trip took longer (a strip's chain of plugins), it sleeps at once: spinning would only burn the CPU the
/// sandbox needs.
static const int64_t FB_SANDBOX_SPIN_NS = 30 * 1000;
/// After a long last round trip: Foldback naps for this share of it (in eighths)…
static const int64_t FB_SANDBOX_NAP_EIGHTHS = 7;
/// …unless that is shorter than this (a sleep and its wake cost about as much)…
static const int64_t FB_SANDBOX_MIN_NAP_NS = 20 * 1000;
/// …then spins at most this long before it sleeps until the sandbox wakes it or the deadline passes.
static const int64_t FB_SANDBOX_TAIL_SPIN_NS = 10 * 1000;



/// Touches every page (MAP_POPULATE already did; this also covers a kernel that ignored it) and locks the region.
static int fb_prefault_and_lock(void *region, size_t size) {
    long page = sysconf(_SC_PAGESIZE);
    for (size_t offset = 0; offset < size; offset += (size_t)page) ((volatile char *)region)[offset] = ((volatile char *)region)[offset];
    return mlock(region, size) == 0;
}

fb_sandbox_shared *fb_sandbox_create(uint32_t in, uint32_t out, uint32_t maxFrames, uint32_t parameterCount, int *fd, int *locked) {
    if (in < 1 || out < 1 || in > FB_SANDBOX_MAX_CHANNELS || out > FB_SANDBOX_MAX_CHANNELS || maxFrames < 1 || maxFrames > 65536) {
        errno = EINVAL;
        return NULL;
    }
    size_t size = fb_sandbox_size(in, out, maxFrames, parameterCount);
    int handle = memfd_create("foldback-sandbox", MFD_CLOEXEC);
    if (handle < 0) return NULL;
    if (ftruncate(handle, (off_t)size) != 0) {
        close(handle);
        return NULL;
    }
    fb_sandbox_shared *shared = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, handle, 0);
    if (shared == MAP_FAILED) {
        close(handle);
        return NULL;
    }
    memset(shared, 0, size);
    shared->inputChannels = in;
    shared->outputChannels = out;
    shared->maxFrames = maxFrames;
    shared->parameterCount = parameterCount;
    shared->size = size;
    uint32_t unset;
    float nan = NAN;
    memcpy(&unset, &nan, sizeof unset);
    for (uint32_t index = 0; index < parameterCount; index++) {
        atomic_init(&shared->parameters[index], unset);
        atomic_init(&fb_restored(shared)[index], unset);
    }
    shared->version = FB_SANDBOX_VERSION;
    atomic_thread_fence(memory_order_release);
    shared->magic = FB_SANDBOX_MAGIC;
    *locked = fb_prefault_and_lock(shared, size);
    *fd = handle;
    return shared;
}

fb_sandbox_shared *fb_sandbox_open(const char *path, int *locked) {
    int handle = open(path, O_RDWR | O_CLOEXEC);
    if (handle < 0) return NULL;
    struct stat info;
    if (fstat(handle, &info) != 0 || (size_t)info.st_size < sizeof(fb_sandbox_shared)) {
        close(handle);
        errno = EINVAL;
        return NULL;
    }
    fb_sandbox_shared *shared = mmap(NULL, (size_t)info.st_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, handle, 0);
    close(handle);
    if (shared == MAP_FAILED) return NULL;
    if (shared->magic != FB_SANDBOX_MAGIC || shared->version != FB_SANDBOX_VERSION || shared->size != (uint64_t)info.st_size
        || shared->size != fb_sandbox_size(shared->inputChannels, shared->outputChannels, shared->maxFrames, shared->parameterCount)) {
        munmap(shared, (size_t)info.st_size);
        errno = EINVAL;
        return NULL;
    }
    *locked = fb_prefault_and_lock(shared, (size_t)shared->size);
    return shared;
}

void fb_sandbox_unmap(fb_sandbox_shared *shared) { munmap(shared, (size_t)shared->size); }

uint32_t fb_sandbox_input_channels(const fb_sandbox_shared *shared) { return shared->inputChannels; }
uint32_t fb_sandbox_output_channels(const fb_sandbox_shared *shared) { return shared->outputChannels; }
uint32_t fb_sandbox_max_frames(const fb_sandbox_shared *shared) { return shared->maxFrames; }
uint32_t fb_sandbox_parameter_count(const fb_sandbox_shared *shared) { return shared->parameterCount; }

float *fb_sandbox_input(fb_sandbox_shared *shared, uint32_t channel) { return fb_audio(shared) + (size_t)channel * shared->maxFrames; }

float *fb_sandbox_output(fb_sandbox_shared *shared, uint32_t channel) {
    return fb_audio(shared) + (size_t)(shared->inputChannels + channel) * shared->maxFrames;
}

float fb_sandbox_parameter(const fb_sandbox_shared *shared, uint32_t index) {
    if (index >= shared->parameterCount) return NAN;
    return fb_load_float(&((fb_sandbox_shared *)shared)->parameters[index], memory_order_relaxed);
}

void fb_sandbox_set_parameter(fb_sandbox_shared *shared, uint32_t index, float value) {
    if (index >= shared->parameterCount) return;
    fb_store_float(&shared->parameters[index], value, memory_order_relaxed);
}

float fb_sandbox_meter(const fb_sandbox_shared *shared, uint32_t index) {
    if (index >= FB_SANDBOX_METERS) return NAN;
    return fb_load_float(&((fb_sandbox_shared *)shared)->meters[index], memory_order_relaxed);
}

void fb_sandbox_set_meter_bits(fb_sandbox_shared *shared, uint32_t index, uint32_t bits) {
    if (index < FB_SANDBOX_METERS) atomic_store_explicit(&shared->meters[index], bits, memory_order_relaxed);
}

uint32_t fb_sandbox_state(const fb_sandbox_shared *shared) {
    return atomic_load_explicit(&((fb_sandbox_shared *)shared)->state, memory_order_acquire);
}

void fb_sandbox_set_ready(fb_sandbox_shared *shared, uint32_t latency) {
    atomic_store_explicit(&shared->latency, latency, memory_order_relaxed);
    atomic_store_explicit(&shared->state, FB_SANDBOX_READY, memory_order_release);
}

void fb_sandbox_set_failed(fb_sandbox_shared *shared) { atomic_store_explicit(&shared->state, FB_SANDBOX_FAILED, memory_order_release); }

uint32_t fb_sandbox_latency(const fb_sandbox_shared *shared) {
    return atomic_load_explicit(&((fb_sandbox_shared *)shared)->latency, memory_order_relaxed);
}

void fb_sandbox_rearm(fb_sandbox_shared *shared) {
    atomic_store_explicit(&shared->state, FB_SANDBOX_STARTING, memory_order_release);
    uint32_t request = atomic_load_explicit(&shared->request, memory_order_acquire);
    atomic_store_explicit(&shared->response, request, memory_order_release);
    atomic_store_explicit(&shared->lateInARow, 0, memory_order_relaxed);
    atomic_store_explicit(&shared->garbage, 0, memory_order_relaxed);
    atomic_store_explicit(&shared->garbageInARow, 0, memory_order_relaxed);
    atomic_store_explicit(&shared->garbageRuns, 0, memory_order_relaxed);
}

void fb_sandbox_request_reset(fb_sandbox_shared *shared) { atomic_fetch_add_explicit(&shared->resets, 1, memory_order_relaxed); }

FB_COUNTER(fb_sandbox_late_in_a_row, uint32_t, lateInARow)
FB_COUNTER(fb_sandbox_late_total, uint64_t, lateTotal)
FB_COUNTER(fb_sandbox_delivered, uint64_t, delivered)
FB_COUNTER(fb_sandbox_garbage, uint32_t, garbage)
FB_COUNTER(fb_sandbox_garbage_in_a_row, uint32_t, garbageInARow)
FB_COUNTER(fb_sandbox_garbage_runs, uint32_t, garbageRuns)
FB_COUNTER(fb_sandbox_last_round_trip_ns, uint64_t, roundTripNs)
FB_COUNTER(fb_sandbox_resets, uint32_t, resets)
FB_COUNTER(fb_sandbox_posted_cycles, uint64_t, postedCycles)
FB_COUNTER(fb_sandbox_wait_total_ns, uint64_t, waitNs)
FB_COUNTER(fb_sandbox_taken_at_ns, int64_t, takenAtNs)
FB_COUNTER(fb_sandbox_reached_at_ns, int64_t, reachedAtNs)

void fb_sandbox_limits(uint64_t *memlock, uint64_t *rttime) {
    struct rlimit limit;
    *memlock = getrlimit(RLIMIT_MEMLOCK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY ? (uint64_t)limit.rlim_cur : UINT64_MAX;
    *rttime = getrlimit(RLIMIT_RTTIME, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY ? (uint64_t)limit.rlim_cur : UINT64_MAX;
}

int fb_sandbox_serve_wait(fb_sandbox_shared *shared, uint32_t *seen, uint32_t *frames, int64_t timeoutNs) {
    int64_t deadline = fb_now_ns() + timeoutNs;
    for (;;) {
        uint32_t request = atomic_load_explicit(&shared->request, memory_order_acquire);
        if (request != *seen) {
            *seen = request;
            *frames = atomic_load_explicit(&shared->frames, memory_order_relaxed);
            atomic_store_explicit(&shared->takenAtNs, fb_now_ns(), memory_order_relaxed);
            int cpu = sched_getcpu();
            atomic_store_explicit(&shared->sandboxCpu, cpu < 0 ? UINT32_MAX : (uint32_t)cpu, memory_order_relaxed);
            return 1;
        }
        int64_t left = deadline - fb_now_ns();
        if (left <= 0) return 0;
        fb_sandbox_wait(&shared->request, request, left);
    }
}

void fb_sandbox_serve_done(fb_sandbox_shared *shared, uint32_t seq) {
    atomic_store_explicit(&shared->doneAtNs, fb_now_ns(), memory_order_relaxed);
    atomic_store_explicit(&shared->response, seq, memory_order_seq_cst);
    if (atomic_load_explicit(&shared->waiting, memory_order_seq_cst)) fb_sandbox_wake(&shared->response);
}

/// The fallback for a cycle without the sandbox's output: the inputs passed through (channel by channel, the last
/// input repeated for extra outputs) or silence.
static void fb_fallback(const fb_sandbox_unit *unit, const float *const *inputs, float *const *outputs, uint32_t frames) {
    for (uint32_t channel = 0; channel < unit->outputChannels; channel++) {
        if (unit->onFault == FB_SANDBOX_MUTE) {
            memset(outputs[channel], 0, frames * sizeof(float));
        } else {
            uint32_t source = channel < unit->inputChannels ? channel : unit->inputChannels - 1;
            memcpy(outputs[channel], inputs[source], frames * sizeof(float));
        }
    }
}

/// Whether any output sample is NaN, infinite or above +24 dBFS.
static int fb_is_garbage(fb_sandbox_shared *shared, uint32_t frames) {
    uint32_t channels = shared->outputChannels;
    int bad = 0;
    for (uint32_t channel = 0; channel < channels; channel++) {
        const float *samples = fb_sandbox_output(shared, channel);
        // A NaN fails every comparison, so `!(|x| <= limit)` catches it with the absurd and infinite values.
        for (uint32_t frame = 0; frame < frames; frame++) bad |= !(fabsf(samples[frame]) <= FB_SANDBOX_ABSURD);
    }
    return bad;
}

/// Foldback's wait for response `seq` (it read `busy` while the sandbox worked), the file comment's three steps, each
/// bounded by `deadline`: 1 when it came, 0 when the deadline passed.
static int fb_sandbox_await(fb_sandbox_shared *shared, uint32_t seq, uint32_t busy, int64_t start, int64_t last, int64_t deadline) {
    // A short round trip: spin as before, no nap. A long one with the sandbox on this CPU (it last ran here: pinned by
    // the user, or the scheduler's choice): no nap and no spin, the wake costs no interrupt and ends the wait soonest.
    int64_t spinEnd = start + FB_SANDBOX_SPIN_NS;
    int64_t service = atomic_load_explicit(&shared->serviceNs, memory_order_relaxed);
    int64_t previous = atomic_load_explicit(&shared->previousServiceNs, memory_order_relaxed);
    int64_t expected = previous > 0 && previous < service ? previous : service;
    if (last > FB_SANDBOX_SPIN_NS && expected > 0) {
        int cpu = sched_getcpu();
        int apart = cpu >= 0 && (uint32_t)cpu != atomic_load_explicit(&shared->sandboxCpu, memory_order_relaxed);
        spinEnd = 0;
        if (apart) {
            // ⅞ of the shorter of the last two services (request to the sandbox's done), at most a quarter of the way to
            // the deadline: a slow cycle (a page fault, a preemption) neither lengthens the next naps nor eats the period.
            int64_t napEnd = start + expected / 8 * FB_SANDBOX_NAP_EIGHTHS;
            if (napEnd > start + (deadline - start) / 4) napEnd = start + (deadline - start) / 4;
            int64_t now = fb_now_ns();
            if (napEnd - now >= FB_SANDBOX_MIN_NAP_NS) fb_sandbox_wait(&shared->response, busy, napEnd - now);
            spinEnd = fb_now_ns() + FB_SANDBOX_TAIL_SPIN_NS;
        }
    }
    int delivered = 0;
    for (;;) {
        uint32_t response = atomic_load_explicit(&shared->response, memory_order_acquire);
        if (response == seq) {
            delivered = 1;
            break;
        }
        int64_t now = fb_now_ns();
        if (now >= deadline) break;
        if (now < spinEnd) continue;
        atomic_store_explicit(&shared->waiting, 1, memory_order_seq_cst);
        response = atomic_load_explicit(&shared->response, memory_order_seq_cst);
        if (response != seq) fb_sandbox_wait(&shared->response, response, deadline - now);
    }
    atomic_store_explicit(&shared->waiting, 0, memory_order_relaxed);
    return delivered;
}

/// The wait's length for a cycle of `frames`: a fraction of its period (live) or the fixed offline timeout.
static int64_t fb_sandbox_timeout(const fb_sandbox_unit *unit, uint32_t frames) {
    return unit->fixedTimeoutNs > 0 ? unit->fixedTimeoutNs : (int64_t)((double)frames / unit->sampleRate * unit->deadlineFraction * 1e9);
}

/// Whether the sandbox is ready and idle (it answered its last request, left in `*request`): only then may a new cycle's
/// inputs be written, as it reads nothing of the region between its answer and the next request.
static int fb_sandbox_idle(fb_sandbox_shared *shared, uint32_t *request) {
    if (atomic_load_explicit(&shared->state, memory_order_acquire) != FB_SANDBOX_READY) return 0;
    *request = atomic_load_explicit(&shared->request, memory_order_relaxed);
    return atomic_load_explicit(&shared->response, memory_order_acquire) == *request;
}

/// Copies the inputs in and hands the idle sandbox the request after `request` (FUTEX_WAKE); returns its number.
static uint32_t fb_sandbox_request(fb_sandbox_unit *unit, const float *const *inputs, uint32_t frames, uint32_t request) {
    fb_sandbox_shared *shared = unit->shared;
    for (uint32_t channel = 0; channel < unit->inputChannels; channel++)
        memcpy(fb_sandbox_input(shared, channel), inputs[channel], frames * sizeof(float));
    uint32_t seq = request + 1;
    atomic_store_explicit(&shared->frames, frames, memory_order_relaxed);
    atomic_store_explicit(&shared->request, seq, memory_order_release);
    fb_sandbox_wake(&shared->request);
    return seq;
}

void fb_sandbox_post(fb_sandbox_unit *unit, const float *const *inputs, uint32_t frames) FB_NONBLOCKING {
    unit->postedFrames = 0;
    uint32_t request;
    if ((unit->group && unit->member > 0) || !fb_sandbox_idle(unit->shared, &request)) return;
    int64_t start = fb_now_ns();
    unit->postedAtNs = start;
    unit->postedDeadlineNs = start + fb_sandbox_timeout(unit, frames);
    unit->posted = fb_sandbox_request(unit, inputs, frames, request);
    unit->postedFrames = frames;
}

/// Whether the posted request `seq` is this cycle's: nothing was asked since, for as many frames, with the very inputs
/// the unit reads at its place (the engine posts only an input it already knows; this keeps the output bit-identical
/// whatever happens in between).
static int fb_sandbox_post_holds(fb_sandbox_unit *unit, uint32_t seq, uint32_t frames, const float *const *inputs) {
    fb_sandbox_shared *shared = unit->shared;
    if (frames != unit->postedFrames || atomic_load_explicit(&shared->request, memory_order_relaxed) != seq) return 0;
    for (uint32_t channel = 0; channel < unit->inputChannels; channel++)
        if (memcmp(fb_sandbox_input(shared, channel), inputs[channel], frames * sizeof(float)) != 0) return 0;
    return 1;
}

static int fb_sandbox_exchange(fb_sandbox_unit *unit, const float *const *inputs, uint32_t frames) FB_NONBLOCKING {
    fb_sandbox_shared *shared = unit->shared;
    int64_t reached = fb_now_ns();
    atomic_store_explicit(&shared->reachedAtNs, reached, memory_order_relaxed);
    int64_t timeout = fb_sandbox_timeout(unit, frames);
    int64_t start = reached, deadline = reached + timeout;
    uint32_t seq = 0, request;
    int posted = 0;
    if (unit->postedFrames != 0) {
        // Posted at the chunk's start: collect it, the deadline counted from the post.
        seq = unit->posted;
        start = unit->postedAtNs;
        deadline = unit->postedDeadlineNs;
        posted = fb_sandbox_post_holds(unit, seq, frames, inputs);
        unit->postedFrames = 0;
        // Not this cycle's input after all: the sandbox finishes that one, then takes this one, by the same deadline.
        if (!posted && !fb_sandbox_await(shared, seq, seq - 1, start, 0, deadline)) {
            atomic_fetch_add_explicit(&shared->waitNs, (uint64_t)(fb_now_ns() - reached), memory_order_relaxed);
            return 0;
        }
    }
    if (!posted) {
        if (!fb_sandbox_idle(shared, &request)) return 0;   // not ready, or still busy with a late cycle
        start = fb_now_ns();
        seq = fb_sandbox_request(unit, inputs, frames, request);
    }
    int64_t last = (int64_t)atomic_load_explicit(&shared->roundTripNs, memory_order_relaxed);
    int delivered = fb_sandbox_await(shared, seq, seq - 1, start, last, deadline);
    int64_t end = fb_now_ns();
    atomic_fetch_add_explicit(&shared->waitNs, (uint64_t)(end - reached), memory_order_relaxed);
    if (!delivered) return 0;
    if (posted) atomic_fetch_add_explicit(&shared->postedCycles, 1, memory_order_relaxed);
    atomic_store_explicit(&shared->roundTripNs, (uint64_t)(end - start), memory_order_relaxed);
    int64_t service = atomic_load_explicit(&shared->doneAtNs, memory_order_relaxed) - start;
    if (service > 0 && service < timeout) {
        atomic_store_explicit(&shared->previousServiceNs, atomic_load_explicit(&shared->serviceNs, memory_order_relaxed), memory_order_relaxed);
        atomic_store_explicit(&shared->serviceNs, service, memory_order_relaxed);
    }
    if (fb_is_garbage(shared, frames)) {
        // As the engine's NaN guard does in Foldback's process: this cycle falls back, and the plugins are reset (the
        // sandbox restarts them before its next cycles). The supervisor kills the sandbox only if the garbage goes on.
        atomic_fetch_add_explicit(&shared->garbage, 1, memory_order_relaxed);
        if (atomic_fetch_add_explicit(&shared->garbageInARow, 1, memory_order_relaxed) == 0) {
            atomic_fetch_add_explicit(&shared->garbageRuns, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&shared->resets, 1, memory_order_relaxed);
        }
        return -1;
    }
    if (atomic_load_explicit(&shared->garbageInARow, memory_order_relaxed) != 0)
        atomic_store_explicit(&shared->garbageInARow, 0, memory_order_relaxed);
    return 1;
}

/// The unit's part of a delivered (`result` 1) or missed cycle: the sandbox's outputs (after a fallback, crossfaded in
/// over `fadeFrames`) or the fallback.
static int fb_sandbox_deliver(fb_sandbox_unit *unit, int result, const float *const *inputs, float *const *outputs, uint32_t frames) {
    fb_sandbox_shared *shared = unit->shared;
    if (result <= 0) {
        fb_fallback(unit, inputs, outputs, frames);
        unit->fadePosition = 0;
        return 0;
    }
    if (unit->fadePosition >= unit->fadeFrames) {
        for (uint32_t channel = 0; channel < unit->outputChannels; channel++)
            memcpy(outputs[channel], fb_sandbox_output(shared, unit->outputOffset + channel), frames * sizeof(float));
        return 1;
    }
    // Back after a fallback: a linear crossfade from the fallback to the sandbox's output over `fadeFrames`.
    fb_fallback(unit, inputs, outputs, frames);
    uint32_t position = unit->fadePosition;
    for (uint32_t channel = 0; channel < unit->outputChannels; channel++) {
        const float *wet = fb_sandbox_output(shared, unit->outputOffset + channel);
        float *out = outputs[channel];
        for (uint32_t frame = 0; frame < frames; frame++) {
            uint32_t at = position + frame;
            float gain = at >= unit->fadeFrames ? 1.0f : (float)at / (float)unit->fadeFrames;
            out[frame] += gain * (wet[frame] - out[frame]);
        }
    }
    unit->fadePosition = position + frames > unit->fadeFrames ? unit->fadeFrames : position + frames;
    return 1;
}

int fb_sandbox_process(fb_sandbox_unit *unit, const float *const *inputs, float *const *outputs, uint32_t frames) {
    fb_sandbox_shared *shared = unit->shared;
    fb_sandbox_group *group = unit->group;
    if (group && unit->member > 0) {
        // A later unit of a group: the first one's exchange this cycle ran the whole chain (or failed).
        int result = group->stamp != unit->seenStamp ? group->result : 0;
        unit->seenStamp = group->stamp;
        return fb_sandbox_deliver(unit, result, inputs, outputs, frames);
    }
    int result = fb_sandbox_exchange(unit, inputs, frames);
    if (result == 0 && atomic_load_explicit(&shared->state, memory_order_relaxed) == FB_SANDBOX_READY) {
        atomic_fetch_add_explicit(&shared->lateInARow, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&shared->lateTotal, 1, memory_order_relaxed);
    } else if (result > 0) {
        atomic_store_explicit(&shared->lateInARow, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&shared->delivered, 1, memory_order_relaxed);
    }
    if (group) {
        group->result = result;
        group->stamp++;
        unit->seenStamp = group->stamp;
    }
    return fb_sandbox_deliver(unit, result, inputs, outputs, frames);
}

void fb_sandbox_unit_set_parameter(fb_sandbox_unit *unit, uint32_t index, float value) {
    fb_sandbox_set_parameter(unit->shared, unit->parameterOffset + index, value);
}
