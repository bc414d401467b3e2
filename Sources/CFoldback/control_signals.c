// Async-signal-safe SIGUSR1/SIGUSR2 counters: run-time start/stop of recording and file playback. Non-realtime.
#include "CFoldback.h"
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t fb_usr1_count = 0;
static volatile sig_atomic_t fb_usr2_count = 0;

static void fb_on_control_signal(int signo) {
    if (signo == SIGUSR1) fb_usr1_count++;
    else if (signo == SIGUSR2) fb_usr2_count++;
}

void fb_install_control_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = fb_on_control_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &action, NULL);
    sigaction(SIGUSR2, &action, NULL);
}

int fb_control_signal_count(int which) { return which == 2 ? (int)fb_usr2_count : (int)fb_usr1_count; }
