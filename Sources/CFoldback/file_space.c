// Disk space reserved ahead of a long file write (Linux fallocate, which Swift's Glibc module does not export). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE
#include "CFoldback.h"
#include <errno.h>
#include <fcntl.h>

int fb_reserve_file_space(int fd, int64_t length) {
#ifdef FALLOC_FL_KEEP_SIZE
    if (length <= 0) return 0;
    return fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)length) == 0 ? 0 : errno;
#else
    (void)fd;
    (void)length;
    return EOPNOTSUPP;
#endif
}
