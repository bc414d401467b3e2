#!/usr/bin/env bash
# `make feedback-demo`: the feedback story on the simulated stage, rendered offline (no JACK, faster than realtime):
# a singer at the mic, the wedge pushed 6 dB past the room's maximum stable gain. First with nothing in the
# wedge's path (it howls), then with a live `feedback` unit (it does not). Twice: a short loop (a wedge close to
# the mic on a low-latency rig, 11 ms) into feedback-demo.wav, and a 25 ms loop (a wedge further off, a laptop at
# 256 frames) into feedback-demo-25ms.wav.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
over="${FEEDBACK_DEMO_OVER_DB:-6}"

echo "== Foldback feedback demo: the simulated stage, loop gain pushed to ${over} dB past its maximum stable gain"
echo "-- a short loop: 11 ms"
"$bin/foldback-probe" --feedback-stage --over-db "$over" --loop-ms 11 --output feedback-demo.wav --format pcm24
echo
echo "-- a long loop: 25 ms (its resonances 40 Hz apart)"
"$bin/foldback-probe" --feedback-stage --over-db "$over" --loop-ms 25 --output feedback-demo-25ms.wav --format pcm24
echo
echo "== Play them with: aplay feedback-demo.wav feedback-demo-25ms.wav  (each: the howl first, then the same push tamed)"
