#include <jack/jack.h>
// SPDX-License-Identifier: GPL-3.0-or-later
#include <jack/metadata.h>
#include <jack/uuid.h>
#include <jack/midiport.h>
#include <jack/thread.h>
