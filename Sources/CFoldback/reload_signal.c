// Async-signal-safe SIGHUP recording: "reload the current preset" for the CLI's control loop. Non-realtime.
#include "CFoldback.h"
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t fb_reload_requested = 0;

static void fb_on_reload_signal(int signo) {
    (void)signo;
    fb_reload_requested = 1;
}

void fb_install_reload_signal(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = fb_on_reload_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGHUP, &action, NULL);
}

int fb_take_reload_request(void) {
    return __atomic_exchange_n(&fb_reload_requested, 0, __ATOMIC_ACQ_REL) != 0;
}
