// What marks a C function as on the audio path: RealtimeSanitizer's nonblocking attribute (when built with
// SPDX-License-Identifier: GPL-3.0-or-later
// -fsanitize=realtime) and the allocation counter's audio-path flag. Realtime.
#ifndef FB_REALTIME_SCOPE_H
#define FB_REALTIME_SCOPE_H

#if defined(__has_feature)
#if __has_feature(realtime_sanitizer)
#define FB_RTSAN 1
#endif
#endif

#ifdef FB_RTSAN
#include <sanitizer/rtsan_interface.h>
#define FB_NONBLOCKING [[clang::nonblocking]]
#else
#define FB_NONBLOCKING
#endif

/// Read by the allocation counter (weak: absent when it is not preloaded).
__attribute__((weak)) void fb_alloc_counter_enter_audio(void);
__attribute__((weak)) void fb_alloc_counter_leave_audio(void);

#endif
