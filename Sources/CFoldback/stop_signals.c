// Async-signal-safe SIGINT/SIGTERM recording for the CLI's main loop. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "CFoldback.h"
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t fb_last_stop_signal = 0;

static void fb_on_stop_signal(int signo) { fb_last_stop_signal = signo; }

void fb_install_stop_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = fb_on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int fb_stop_signal(void) { return (int)fb_last_stop_signal; }
