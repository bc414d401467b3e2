// The CPU a second process costs per JACK-like cycle when it is woken through a futex and answers, doing no work: the
// floor under any plugin sandbox (issue 34). Benchmark only, not built by the package. Usage: wake-floor CYCLES SPLIT.
// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    _Atomic uint32_t request, response;
    _Atomic int stop;
} shared_t;

static void wake(_Atomic uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0); }
static void sleep_while(_Atomic uint32_t *word, uint32_t value) { syscall(SYS_futex, word, FUTEX_WAIT, value, NULL, NULL, 0); }
static void fifo(int priority) {
    struct sched_param param = {.sched_priority = priority};
    if (sched_setscheduler(0, SCHED_FIFO, &param) != 0) perror("SCHED_FIFO (measuring at normal priority)");
}

/// The second process: answers each request at once, as a sandbox with no plugin would.
static void answer(shared_t *shared) {
    fifo(70);
    uint32_t seen = 0;
    while (!atomic_load(&shared->stop)) {
        while (atomic_load(&shared->request) == seen && !atomic_load(&shared->stop)) sleep_while(&shared->request, seen);
        seen = atomic_load(&shared->request);
        atomic_store(&shared->response, seen);
        wake(&shared->response);
    }
}

int main(int argc, char **argv) {
    int cycles = argc > 1 ? atoi(argv[1]) : 2000, split = argc > 2 ? atoi(argv[2]) : 1;
    const int64_t period = 256LL * 1000000000 / 48000;   // 48 kHz / 256 frames
    shared_t *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    pid_t child = -1;
    if (split && (child = fork()) == 0) {
        answer(shared);
        return 0;
    }
    fifo(70);
    usleep(100000);
    struct timespec started, next;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &started);
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (uint32_t cycle = 1; cycle <= (uint32_t)cycles; cycle++) {
        next.tv_nsec += period;
        while (next.tv_nsec >= 1000000000) { next.tv_nsec -= 1000000000; next.tv_sec++; }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);   // JACK's wake of the client, as a timer here
        if (!split) continue;
        atomic_store(&shared->request, cycle);
        wake(&shared->request);
        uint32_t response;
        while ((response = atomic_load(&shared->response)) != cycle) sleep_while(&shared->response, response);
    }
    struct timespec ended;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ended);
    double host = ((ended.tv_sec - started.tv_sec) * 1e9 + (ended.tv_nsec - started.tv_nsec)) / 1000.0 / cycles, other = 0;
    if (split) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/schedstat", child);
        FILE *file = fopen(path, "r");
        long long ran = 0;
        if (file) {
            if (fscanf(file, "%lld", &ran) != 1) ran = 0;
            fclose(file);
        }
        other = ran / 1000.0 / cycles;
        atomic_store(&shared->stop, 1);
        atomic_store(&shared->request, UINT32_MAX);
        wake(&shared->request);
        waitpid(child, NULL, 0);
    }
    printf("%-14s host %6.1f µs/cycle  second process %6.1f  total %6.1f\n", split ? "two processes" : "one process", host, other, host + other);
    return 0;
}
