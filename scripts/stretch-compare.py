#!/usr/bin/env python3
# Compares Foldback's pitch shift of a file source with the `rubberband` command-line tool's (same library):
# speech (espeak-ng) and a chord shifted -2 semitones; prints the log-spectral distance (dB) of each pair, and of
# the unshifted input against the CLI's shift for scale. Usage: scripts/stretch-compare.py [FOLDBACK_BINARY]
# SPDX-License-Identifier: GPL-3.0-or-later
import os, subprocess, sys, tempfile, wave
import numpy as np

foldback = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/foldback"
work = tempfile.mkdtemp(prefix="foldback-stretch-")

def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def read(path):
    raw = os.path.join(work, "read.f32")
    run("sox", path, "-t", "f32", "-c", "1", raw)
    return np.fromfile(raw, dtype=np.float32)

def rate(path):
    return int(subprocess.run(["soxi", "-r", path], check=True, capture_output=True, text=True).stdout)

def spectrum(x, n=2048, hop=512):
    frames = [x[i:i + n] * np.hanning(n) for i in range(0, len(x) - n, hop)]
    return 20 * np.log10(np.abs(np.fft.rfft(np.array(frames), axis=1)) + 1e-6)

def distance(a, b):
    """Log-spectral distance, dB RMS over frames and bins, of the frames where either is within 60 dB of its peak."""
    length = min(len(a), len(b))
    sa, sb = spectrum(a[:length]), spectrum(b[:length])
    floor = max(sa.max(), sb.max()) - 60
    sa, sb = np.maximum(sa, floor), np.maximum(sb, floor)
    return float(np.sqrt(np.mean((sa - sb) ** 2)))

speech = os.path.join(work, "speech.wav")
run("espeak-ng", "-w", speech, "The band plays this song a whole tone down tonight, at eighty five percent of its speed.")
chord = os.path.join(work, "chord.wav")
run("sox", "-n", "-r", "48000", "-c", "1", "-b", "24", chord, "synth", "5", "sine", "261.63", "sine", "329.63", "sine", "392", "vol", "0.3")
for name, path in [("speech", speech), ("chord", chord)]:
    preset = os.path.join(work, name + ".toml")
    with open(preset, "w") as f:
        f.write(f'[[bus]]\nname = "main"\nchannels = 1\nlimiter = false\n\n[[strip]]\nname = "backing"\nchannels = 1\n'
                f'source = {{ file = "{path}", pitch_semitones = -2 }}\nsend = [{{ bus = "main" }}]\n')
    ours = os.path.join(work, name + "-foldback.wav")
    run(foldback, "render", preset, "--output", "main=" + ours, "--rate", str(rate(path)), "--tail", "0")
    original = read(path)
    ours_audio = read(ours)
    for engine, flag in [("R3", "-3"), ("R2", "-2")]:
        cli = os.path.join(work, f"{name}-cli-{engine}.wav")
        run("rubberband", flag, "-p", "-2", path, cli)
        theirs = read(cli)
        print(f"{name}: foldback (R3, realtime mode) vs rubberband {flag} -p -2: {distance(ours_audio, theirs):.2f} dB; "
              f"unshifted input vs it: {distance(original, theirs):.2f} dB")
