/* Test-only LV2 plugins that misbehave on cue (segfault, hang, one late cycle, NaN, abort at instantiation) and a
 * well-behaved gain as the control. Compiled at test time by FaultyPlugins.swift; run() runs on the host's audio thread.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every plugin: port 0 audio in, 1 audio out, 2 `gain` (linear). The faulty ones add 3 `trigger` (a fault on each
 * rising edge through 0.5) and 4 `fault_after_s` (a fault once that many seconds of audio, counted in frames run since
 * activate(), have passed; 0 or less: never). Before its fault each plays in × gain. Per plugin, port 5:
 * hang `busy` (0: sleeps 1 ms at a time forever, 1: spins the CPU forever); sleep-once `sleep_ms` (each fault is
 * one cycle that late, then it behaves); nan `kind` (0 NaN, 1 +Inf, 2 in × 1000 = +60 dB).
 */
#define _POSIX_C_SOURCE 200809L
#include <lv2/core/lv2.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define FAULTY_URI "urn:foldback:test:faulty#"

enum Kind { PASS, SEGFAULT, HANG, SLEEP_ONCE, NAN_OUT, ABORT_INSTANTIATE, KIND_COUNT };

typedef struct {
    enum Kind kind;
    double rate;
    const float *in;
    float *out;
    const float *gain;
    const float *trigger;
    const float *after;
    const float *extra;
    uint64_t frames;      /* run since activate() */
    int armedByTime;      /* fault_after_s not yet reached */
    int triggerHigh;      /* last trigger level was ≥ 0.5 */
    int faulted;          /* nan: outputs garbage from its fault until activate() */
} Faulty;

static LV2_Handle instantiate(enum Kind kind, double rate) {
    if (kind == ABORT_INSTANTIATE) abort();
    Faulty *self = calloc(1, sizeof(Faulty));
    if (!self) return NULL;
    self->kind = kind;
    self->rate = rate;
    return self;
}

#define INSTANTIATE(name, kind) \
    static LV2_Handle name(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *f) { \
        (void)d; (void)path; (void)f; return instantiate(kind, rate); }
INSTANTIATE(instantiatePass, PASS)
INSTANTIATE(instantiateSegfault, SEGFAULT)
INSTANTIATE(instantiateHang, HANG)
INSTANTIATE(instantiateSleepOnce, SLEEP_ONCE)
INSTANTIATE(instantiateNaN, NAN_OUT)
INSTANTIATE(instantiateAbort, ABORT_INSTANTIATE)

static void connect_port(LV2_Handle handle, uint32_t port, void *data) {
    Faulty *self = handle;
    switch (port) {
    case 0: self->in = data; break;
    case 1: self->out = data; break;
    case 2: self->gain = data; break;
    case 3: self->trigger = data; break;
    case 4: self->after = data; break;
    case 5: self->extra = data; break;
    default: break;
    }
}

static void activate(LV2_Handle handle) {
    Faulty *self = handle;
    self->frames = 0;
    self->armedByTime = 1;
    self->triggerHigh = self->trigger && *self->trigger >= 0.5f;
    self->faulted = 0;
}

static void sleepMilliseconds(double ms) {
    struct timespec t = { (time_t)(ms / 1000), (long)(fmod(ms, 1000) * 1e6) };
    while (nanosleep(&t, &t) != 0) {}
}

/* Whether a fault is due in this cycle: a rising edge of `trigger`, or `fault_after_s` reached (once). */
static int faultDue(Faulty *self, uint32_t count) {
    int due = 0;
    int high = self->trigger && *self->trigger >= 0.5f;
    if (high && !self->triggerHigh) due = 1;
    self->triggerHigh = high;
    double after = self->after ? *self->after : 0;
    /* In whole frames, rounded: 0.1 (a float a little above 0.1) at 48 kHz is frame 4800, not 4801. */
    if (self->armedByTime && after > 0 && self->frames + count >= (uint64_t)llround(after * self->rate)) {
        self->armedByTime = 0;
        due = 1;
    }
    self->frames += count;
    return due;
}

static void run(LV2_Handle handle, uint32_t count) {
    Faulty *self = handle;
    int due = self->kind != PASS && faultDue(self, count);
    if (due) {
        switch (self->kind) {
        case SEGFAULT: {
            volatile int *nowhere = NULL;
            *nowhere = 1;
            break;
        }
        case HANG:
            if (self->extra && *self->extra >= 0.5f) {
                for (volatile uint64_t spin = 0;; spin++) {}
            }
            for (;;) sleepMilliseconds(1);
        case SLEEP_ONCE:
            sleepMilliseconds(self->extra ? *self->extra : 20);
            break;
        case NAN_OUT:
            self->faulted = 1;
            break;
        default:
            break;
        }
    }
    float gain = self->gain ? *self->gain : 1;
    if (self->kind == NAN_OUT && self->faulted) {
        int kind = self->extra ? (int)lrintf(*self->extra) : 0;
        for (uint32_t i = 0; i < count; i++) {
            self->out[i] = kind == 1 ? INFINITY : kind == 2 ? self->in[i] * 1000.0f : NAN;
        }
        return;
    }
    for (uint32_t i = 0; i < count; i++) self->out[i] = self->in[i] * gain;
}

static void cleanup(LV2_Handle handle) { free(handle); }

#define DESCRIPTOR(name, instantiator) \
    { FAULTY_URI name, instantiator, connect_port, activate, run, NULL, cleanup, NULL }
static const LV2_Descriptor descriptors[KIND_COUNT] = {
    DESCRIPTOR("pass", instantiatePass),
    DESCRIPTOR("segfault", instantiateSegfault),
    DESCRIPTOR("hang", instantiateHang),
    DESCRIPTOR("sleep-once", instantiateSleepOnce),
    DESCRIPTOR("nan", instantiateNaN),
    DESCRIPTOR("abort-instantiate", instantiateAbort),
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < KIND_COUNT ? &descriptors[index] : NULL;
}
