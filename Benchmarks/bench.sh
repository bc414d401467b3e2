#!/usr/bin/env bash
# Single-thread speed of every built-in unit and of the reference vocal chain, with audio-path malloc
# counts: a release build of `foldback bench` under the LD_PRELOAD allocation counter. Exits 1 if any
# case allocates on the audio path. Extra arguments go to `foldback bench` (e.g. --block 256).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product foldback >&2
swift build -c release --product FoldbackAllocCounter >&2
bin="$(swift build -c release --show-bin-path)"
LD_PRELOAD="$bin/libFoldbackAllocCounter.so" "$bin/foldback" bench "$@"
