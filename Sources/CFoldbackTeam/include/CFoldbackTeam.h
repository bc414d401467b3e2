// The render team: realtime threads sharing the work of one audio cycle, lock-free, and their wake-up.
// SPDX-License-Identifier: GPL-3.0-or-later
// Realtime: fb_team_begin_cycle / fb_team_run / fb_team_end_cycle run on the audio (callback) thread,
// fb_team_work on the team's worker threads. Create, destroy, stop and the local threads are non-realtime.
#ifndef CFOLDBACK_TEAM_H
#define CFOLDBACK_TEAM_H

#include <stdint.h>

#include "fb_doorbell.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fb_team fb_team;

/// One work item of a stage: `job` as given to fb_team_run, `lane` the thread's lane (0 = the
/// callback thread, 1… the workers), `item` 0..<count.
typedef void (*fb_team_item_fn)(void *job, uint32_t lane, uint32_t item);

/// A team of `lanes` threads (the callback thread and lanes − 1 workers). Non-realtime (allocates).
fb_team *fb_team_create(uint32_t lanes);
/// Frees the team; its workers must have returned from fb_team_work.
void fb_team_destroy(fb_team *team);
/// The team's lane count.
uint32_t fb_team_lanes(const fb_team *team);

/// Audio thread, once per cycle before any fb_team_run: opens the cycle. Wakes workers that went to
/// sleep since the last cycle with one FUTEX_WAKE (the team's only syscall on the audio thread).
void fb_team_begin_cycle(fb_team *team);
/// Audio thread: runs `fn(job, lane, item)` for every item in 0..<count, spread over the callback thread
/// and the workers present; returns when all are done. Items are claimed with one atomic counter; the
/// callback thread claims too, so a late or missing worker only means the callback thread does more.
void fb_team_run(fb_team *team, fb_team_item_fn fn, void *job, uint32_t count);
/// Audio thread, after the cycle's last fb_team_run: workers finish spinning and go to sleep.
void fb_team_end_cycle(fb_team *team);

/// A worker thread's body for `lane` (1…lanes − 1): sets FTZ/DAZ, then takes items of every cycle
/// until fb_team_stop. Call from a realtime thread the backend created.
void fb_team_work(fb_team *team, uint32_t lane);
/// Makes every fb_team_work return (and wakes sleeping workers); fb_team_restart re-arms the team.
void fb_team_stop(fb_team *team);
void fb_team_restart(fb_team *team);

/// Plain pthreads running fb_team_work for lanes 1…, for offline rendering and tests (no realtime
/// priority). Returns 0 on success. fb_team_join_local_threads stops the team and joins them.
int fb_team_start_local_threads(fb_team *team);
void fb_team_join_local_threads(fb_team *team);

/// Sets flush-to-zero and denormals-are-zero on the calling thread (x86 MXCSR, AArch64 FPCR).
void fb_team_enable_ftz_daz(void);

/// Counters since creation: futex wakes made by the callback thread, cycles begun, and items each
/// lane ran (`lane` < lanes).
uint64_t fb_team_wake_count(const fb_team *team);
uint64_t fb_team_cycle_count(const fb_team *team);
uint64_t fb_team_items_run(const fb_team *team, uint32_t lane);

#ifdef __cplusplus
}
#endif
#endif
