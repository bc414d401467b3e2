// Async-signal-safe counters for the run-time signals (SIGHUP reload, SIGUSR1 record, SIGUSR2 file players). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "CFoldback.h"
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t fb_signal_counts[NSIG];

static void fb_on_counted_signal(int signo) {
    if (signo > 0 && signo < NSIG) fb_signal_counts[signo]++;
}

void fb_count_signal(int signo) {
    if (signo <= 0 || signo >= NSIG) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = fb_on_counted_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(signo, &action, NULL);
}

int fb_signal_count(int signo) {
    return signo > 0 && signo < NSIG ? (int)fb_signal_counts[signo] : 0;
}
