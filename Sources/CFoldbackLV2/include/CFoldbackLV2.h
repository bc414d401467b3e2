// C shim Swift cannot express: the LV2 log feature's variadic printf. Realtime: the log functions may run on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef CFOLDBACKLV2_H
#define CFOLDBACKLV2_H

#include <stdint.h>
#include <lv2/log/log.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Receives one formatted log line (not NUL-terminated beyond `length`); must not block.
typedef void (*fb_lv2_log_sink)(void *context, uint32_t type, const char *text, uint32_t length);

/// The `log:log` feature data for one plugin instance, with where its lines go.
typedef struct {
    LV2_Log_Log log;
    fb_lv2_log_sink sink;
    void *context;
} fb_lv2_logger;

/// Fills `logger` so that the plugin's printf/vprintf format into a stack buffer (at most 511
/// bytes; longer lines are cut) and hand the text to `sink(context, …)`. No allocation or lock here.
void fb_lv2_logger_init(fb_lv2_logger *logger, fb_lv2_log_sink sink, void *context);

#ifdef __cplusplus
}
#endif

#endif
