// The LV2 log feature's printf/vprintf: format into a stack buffer, hand it to Foldback's sink. Realtime-callable.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "CFoldbackLV2.h"
#include <stdarg.h>
#include <stdio.h>

static int fb_lv2_log_vprintf(LV2_Log_Handle handle, LV2_URID type, const char *format, va_list arguments) {
    fb_lv2_logger *logger = (fb_lv2_logger *)handle;
    char text[512];
    int length = vsnprintf(text, sizeof text, format, arguments);
    if (length < 0) return length;
    if (length >= (int)sizeof text) length = (int)sizeof text - 1;
    while (length > 0 && text[length - 1] == '\n') length--;
    logger->sink(logger->context, type, text, (uint32_t)length);
    return length;
}

static int fb_lv2_log_printf(LV2_Log_Handle handle, LV2_URID type, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int length = fb_lv2_log_vprintf(handle, type, format, arguments);
    va_end(arguments);
    return length;
}

void fb_lv2_logger_init(fb_lv2_logger *logger, fb_lv2_log_sink sink, void *context) {
    logger->log.handle = logger;
    logger->log.printf = fb_lv2_log_printf;
    logger->log.vprintf = fb_lv2_log_vprintf;
    logger->sink = sink;
    logger->context = context;
}
