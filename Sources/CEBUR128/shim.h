#include <ebur128.h>
// SPDX-License-Identifier: GPL-3.0-or-later
