#!/usr/bin/env bash
# Foldback's offline speed against its peers on one generated 10-minute 48 kHz mono speech file, timed in
# the same run by CPU time (user + system, all threads, file I/O included):
#   foldback render (reference vocal chain)  vs  pedalboard (10 × PeakFilter + Compressor + Reverb)
#   foldback render (reference vocal chain)  vs  sox (10 × equalizer + compand + reverb)
#   foldback render (one LV2 plugin: swh plate)  vs  lv2apply (the same plugin)
# and prints each ratio (peer CPU time ÷ Foldback CPU time; goals: ≥3× pedalboard, ≥5× sox, ≥50× lv2apply).
# Needs: what `make test` installs (sox, espeak-ng, lilv-utils, swh-lv2) and `pip install pedalboard`.
# Usage: Benchmarks/compare.sh [MINUTES]   (default 10; the work files go to $TMPDIR)
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
minutes="${1:-10}"
work="$(mktemp -d "${TMPDIR:-/tmp}/foldback-compare.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$here/.."
swift build -c release --product foldback >&2
foldback="$(swift build -c release --show-bin-path)/foldback"
cpu() { python3 "$here/cputime.py" "$@" 2>&1 >/dev/null | tail -1; }
ratio() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.1f}')" "$1" "$2"; }

# One speech-like file: espeak-ng speech at 48 kHz, looped to length, 32-bit float.
text="Foldback renders a vocal chain offline with the very engine it runs live on stage. \
The singer hears her own voice with a little reverb, compressed and equalised, while the band plays on."
espeak-ng -s 150 -w "$work/phrase.wav" "$text"
sox "$work/phrase.wav" -r 48000 -b 32 -e floating-point "$work/phrase48.wav" norm -6 pad 0 0.3
phrase=$(soxi -D "$work/phrase48.wav")
repeats=$(python3 -c "import math; print(math.ceil($minutes * 60 / $phrase))")
sox "$work/phrase48.wav" "$work/speech.wav" repeat "$repeats" trim 0 "$((minutes * 60))"
echo "input: $(soxi -D "$work/speech.wav") s, 48000 Hz mono, speech (espeak-ng) looped"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"

foldback_chain=$(cpu "$foldback" render "$here/vocal-chain.toml" -i "$work/speech.wav" -o "$work/foldback.wav" --tail 0)
echo "foldback render, vocal chain:        ${foldback_chain} s CPU"
if python3 -c "import pedalboard" 2>/dev/null; then
    pedalboard=$(cpu python3 "$here/pedalboard_chain.py" "$work/speech.wav" "$work/pedalboard.wav")
    echo "pedalboard, same chain:              ${pedalboard} s CPU   → Foldback is $(ratio "$pedalboard" "$foldback_chain")× faster (goal ≥3×)"
else
    echo "pedalboard: not installed (pip install pedalboard)"
fi
eq=()
band=0
for f in 31 63 125 250 500 1000 2000 4000 8000 16000; do
    eq+=(equalizer "$f" 1.4q "$((band % 2 == 0 ? 3 : -2))")
    band=$((band + 1))
done
sox_chain=$(cpu sox "$work/speech.wav" "$work/sox.wav" "${eq[@]}" compand 0.01,0.1 6:-70,-70,-24,-24,0,-18 channels 2 reverb 25)
echo "sox, same chain:                     ${sox_chain} s CPU   → Foldback is $(ratio "$sox_chain" "$foldback_chain")× faster (goal ≥5×)"

plate="http://plugin.org.uk/swh-plugins/plate"
lv2apply_time=$(cpu lv2apply -i "$work/speech.wav" -o "$work/lv2apply.wav" "$plate")
echo "lv2apply, swh plate:                 ${lv2apply_time} s CPU"
if "$foldback" check "$here/plate.toml" >/dev/null 2>&1; then
    foldback_plate=$(cpu "$foldback" render "$here/plate.toml" -i "$work/speech.wav" -o "$work/foldback-plate.wav" --tail 0)
    echo "foldback render, swh plate:          ${foldback_plate} s CPU   → Foldback is $(ratio "$lv2apply_time" "$foldback_plate")× faster (goal ≥50×)"
else
    echo "foldback render, swh plate:          not available (this build cannot host LV2 plugins yet)"
fi
