#!/usr/bin/env bash
# `make feedback-demo`: the feedback story on the simulated stage, rendered offline (no JACK, faster than realtime):
# a singer at the mic, the wedge pushed 6 dB past the room's maximum stable gain. First with nothing in the
# wedge's path (it howls), then with a live `feedback` unit (it does not). Writes feedback-demo.wav.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
over="${FEEDBACK_DEMO_OVER_DB:-6}"

echo "== Foldback feedback demo: the simulated stage, loop gain pushed to ${over} dB past its maximum stable gain"
"$bin/foldback-probe" --feedback-stage --over-db "$over" --output feedback-demo.wav --format pcm24
echo
echo "== Play it with: aplay feedback-demo.wav  (the howl first, then the same push tamed)"
