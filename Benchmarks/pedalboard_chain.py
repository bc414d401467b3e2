#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The reference vocal chain in Spotify's pedalboard: 10 x PeakFilter -> Compressor -> Reverb (no limiter,
although Foldback's bus has one). Usage: pedalboard_chain.py IN.wav OUT.wav"""
import sys

from pedalboard import Compressor, PeakFilter, Pedalboard, Reverb
from pedalboard.io import AudioFile

FREQUENCIES = [31, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
board = Pedalboard(
    [PeakFilter(cutoff_frequency_hz=f, gain_db=3.0 if i % 2 == 0 else -2.0, q=1.4) for i, f in enumerate(FREQUENCIES)]
    + [Compressor(threshold_db=-24, ratio=4, attack_ms=10, release_ms=100),
       Reverb(room_size=0.6, wet_level=0.25, dry_level=0.75)])
with AudioFile(sys.argv[1]) as source:
    audio = source.read(source.frames)
    rate = source.samplerate
with AudioFile(sys.argv[2], "w", rate, audio.shape[0]) as sink:
    sink.write(board(audio, rate))
