// Saves the fuzz input under test when the process crashes (signal handler) or stalls (watchdog thread). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "CFoldbackFuzz.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char fb_crash_path[4096];
static char fb_hang_path[4096];
static double fb_hang_seconds;
static const uint8_t *_Atomic fb_bytes;
static _Atomic size_t fb_count;
static _Atomic uint64_t fb_index;
static _Atomic int fb_running;
static _Atomic uint64_t fb_started_ns;

static uint64_t fb_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static void fb_save(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    const uint8_t *bytes = atomic_load(&fb_bytes);
    size_t left = atomic_load(&fb_count);
    while (bytes && left > 0) {
        ssize_t written = write(fd, bytes, left);
        if (written <= 0) break;
        bytes += written;
        left -= (size_t)written;
    }
    close(fd);
}

static void fb_on_fatal_signal(int signo) {
    if (atomic_load(&fb_running)) {
        fb_save(fb_crash_path);
        static const char note[] = "foldback-fuzz: the input under test crashed the process; saved to the crash file\n";
        (void)!write(STDERR_FILENO, note, sizeof note - 1);
    }
    signal(signo, SIG_DFL);
    raise(signo);
}

static void *fb_watchdog(void *unused) {
    (void)unused;
    for (;;) {
        usleep(100000);
        if (!atomic_load(&fb_running)) continue;
        // Read which input and when it started before reading the clock: the main thread may begin the next
        // input between the two reads, and a start later than "now" must not count as a hang (it once wrapped
        // to 2^64 ns). The input must still be the same one, still running, after the reading.
        uint64_t index = atomic_load(&fb_index);
        uint64_t started = atomic_load(&fb_started_ns);
        uint64_t now = fb_now_ns();
        if (now <= started) continue;
        double seconds = (double)(now - started) / 1e9;
        if (seconds < fb_hang_seconds) continue;
        if (!atomic_load(&fb_running) || atomic_load(&fb_index) != index || atomic_load(&fb_started_ns) != started) continue;
        fb_save(fb_hang_path);
        fprintf(stderr, "foldback-fuzz: input %llu ran for %.1f s (a hang); saved to %s\n",
                (unsigned long long)index, seconds, fb_hang_path);
        _exit(3);
    }
    return NULL;
}

int fb_fuzz_capture_arm(const char *crash_path, const char *hang_path, double hang_seconds) {
    snprintf(fb_crash_path, sizeof fb_crash_path, "%s", crash_path);
    snprintf(fb_hang_path, sizeof fb_hang_path, "%s", hang_path);
    fb_hang_seconds = hang_seconds;
    const int fatal[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = fb_on_fatal_signal;
        sigemptyset(&action.sa_mask);
        sigaction(fatal[i], &action, NULL);
    }
    pthread_t thread;
    if (pthread_create(&thread, NULL, fb_watchdog, NULL) != 0) return -1;
    pthread_detach(thread);
    return 0;
}

void fb_fuzz_capture_begin(const uint8_t *bytes, size_t count, uint64_t index) {
    atomic_store(&fb_running, 0);
    atomic_store(&fb_bytes, bytes);
    atomic_store(&fb_count, count);
    atomic_store(&fb_index, index);
    atomic_store(&fb_started_ns, fb_now_ns());
    atomic_store(&fb_running, 1);
}

void fb_fuzz_capture_end(void) {
    atomic_store(&fb_running, 0);
}
