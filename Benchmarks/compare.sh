#!/usr/bin/env bash
# Foldback's offline speed against its peers on one generated 10-minute 48 kHz mono speech file, timed in
# the same run by CPU time (user + system, all threads, file I/O and start-up included):
#   foldback render (reference vocal chain)  vs  pedalboard (10 × PeakFilter + Compressor + Reverb)
#   foldback render (reference vocal chain)  vs  sox (10 × equalizer + compand + reverb)
#   foldback render (one LV2 plugin: swh plate)  vs  lv2apply (the same plugin)
# and the render's CPU per input sample against the chain's DSP alone (`foldback bench --only vocal_chain`).
# With --rounds N the chain's runs (foldback, pedalboard, sox, bench) alternate N times and the medians are
# compared (issue 37's goals: ≥5× pedalboard, ≥10× sox, render within 1.5× of bench; ≥50× lv2apply).
# Needs: what `make test` installs (sox, espeak-ng, lilv-utils, swh-lv2) and `pip install pedalboard`.
# Usage: Benchmarks/compare.sh [MINUTES] [--rounds N] [--no-plate]   (default 10 minutes, 1 round; work files in $TMPDIR)
# FOLDBACK_BIN=DIR uses the foldback binary already built there (else a release build).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
minutes=10 rounds=1 plate=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --no-plate) plate=0; shift ;;
        *) minutes="$1"; shift ;;
    esac
done
work="$(mktemp -d "${TMPDIR:-/tmp}/foldback-compare.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$here/.."
if [[ -z "${FOLDBACK_BIN:-}" ]]; then
    swift build -c release --product foldback >&2
    FOLDBACK_BIN="$(swift build -c release --show-bin-path)"
fi
foldback="$FOLDBACK_BIN/foldback"
cpu() { python3 "$here/cputime.py" "$@" 2>&1 >/dev/null | tail -1; }
ratio() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.1f}')" "$1" "$2"; }
median() { python3 -c "import statistics, sys; print(f'{statistics.median(map(float, sys.argv[1:])):.3f}')" "$@"; }

# One speech-like file: espeak-ng speech at 48 kHz, looped to length, 32-bit float.
text="Foldback renders a vocal chain offline with the very engine it runs live on stage. \
The singer hears her own voice with a little reverb, compressed and equalised, while the band plays on."
espeak-ng -s 150 -w "$work/phrase.wav" "$text"
sox "$work/phrase.wav" -r 48000 -b 32 -e floating-point "$work/phrase48.wav" norm -6 pad 0 0.3
phrase=$(soxi -D "$work/phrase48.wav")
repeats=$(python3 -c "import math; print(math.ceil($minutes * 60 / $phrase))")
sox "$work/phrase48.wav" "$work/speech.wav" repeat "$repeats" trim 0 "$((minutes * 60))"
samples=$((minutes * 60 * 48000))
echo "input: $(soxi -D "$work/speech.wav") s, 48000 Hz mono, speech (espeak-ng) looped"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"

have_pedalboard=0
python3 -c "import pedalboard" 2>/dev/null && have_pedalboard=1 || echo "pedalboard: not installed (pip install pedalboard)"
eq=()
band=0
for f in 31 63 125 250 500 1000 2000 4000 8000 16000; do
    eq+=(equalizer "$f" 1.4q "$((band % 2 == 0 ? 3 : -2))")
    band=$((band + 1))
done
fb=() pb=() sx=() bn=()
for round in $(seq "$rounds"); do
    rm -f "$work/foldback.wav" "$work/sox.wav" "$work/pedalboard.wav"
    fb+=("$(cpu "$foldback" render "$here/vocal-chain.toml" -i "$work/speech.wav" -o "$work/foldback.wav" --tail 0)")
    last_pb="–"
    if [[ $have_pedalboard == 1 ]]; then
        last_pb="$(cpu python3 "$here/pedalboard_chain.py" "$work/speech.wav" "$work/pedalboard.wav")"
        pb+=("$last_pb")
    fi
    sx+=("$(cpu sox "$work/speech.wav" "$work/sox.wav" "${eq[@]}" compand 0.01,0.1 6:-70,-70,-24,-24,0,-18 channels 2 reverb 25)")
    bn+=("$("$foldback" bench --only vocal_chain --seconds 10 | awk '$1 == "vocal_chain" { print $2 }')")
    echo "round $round: foldback ${fb[-1]} s, pedalboard ${last_pb} s, sox ${sx[-1]} s CPU; bench vocal_chain ${bn[-1]} ns/sample (load $(cut -d' ' -f1 /proc/loadavg))"
done
foldback_chain=$(median "${fb[@]}")
render_ns=$(python3 -c "print(f'{$foldback_chain * 1e9 / $samples:.1f}')")
bench_ns=$(median "${bn[@]}")
label=$([[ $rounds -gt 1 ]] && echo "median of $rounds" || echo "one run")
echo "foldback render, vocal chain:        ${foldback_chain} s CPU ($label) = ${render_ns} ns/sample; bench ${bench_ns} ns/sample → $(ratio "$render_ns" "$bench_ns")× the DSP (goal ≤1.5×)"
if [[ $have_pedalboard == 1 ]]; then
    pedalboard=$(median "${pb[@]}")
    echo "pedalboard, same chain:              ${pedalboard} s CPU   → Foldback is $(ratio "$pedalboard" "$foldback_chain")× faster (goal ≥5×)"
fi
sox_chain=$(median "${sx[@]}")
echo "sox, same chain:                     ${sox_chain} s CPU   → Foldback is $(ratio "$sox_chain" "$foldback_chain")× faster (goal ≥10×)"

[[ $plate == 1 ]] || exit 0
plate="http://plugin.org.uk/swh-plugins/plate"
lv2apply_time=$(cpu lv2apply -i "$work/speech.wav" -o "$work/lv2apply.wav" "$plate")
echo "lv2apply, swh plate:                 ${lv2apply_time} s CPU"
if "$foldback" check "$here/plate.toml" >/dev/null 2>&1; then
    foldback_plate=$(cpu "$foldback" render "$here/plate.toml" -i "$work/speech.wav" -o "$work/foldback-plate.wav" --tail 0)
    echo "foldback render, swh plate:          ${foldback_plate} s CPU   → Foldback is $(ratio "$lv2apply_time" "$foldback_plate")× faster (goal ≥50×)"
else
    echo "foldback render, swh plate:          not available (this build cannot host LV2 plugins yet)"
fi
