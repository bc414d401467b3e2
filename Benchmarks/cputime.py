#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs a command and prints the CPU time (user + system, all threads) it used, in seconds, on the
last line of standard error. Usage: cputime.py COMMAND [ARG...]"""
import os
import subprocess
import sys

child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(f"cputime.py: {sys.argv[1]} failed ({os.waitstatus_to_exitcode(status)})")
print(f"{usage.ru_utime + usage.ru_stime:.3f}", file=sys.stderr)
