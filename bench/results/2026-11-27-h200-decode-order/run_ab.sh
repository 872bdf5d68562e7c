#!/usr/bin/env bash
# On the GPU machine, after build.sh (.devcarry carried): the sets side by side with SDPA,
# two runs (run_split.py prints a line a point and keeps them as JSON; SETS="old kv2" or "old ilv" for those).
set -uo pipefail
source bench/device_env.sh
python3 bench/results/2026-11-27-h200-decode-split/run_split.py --out "$res/ab" 2>&1 | tee "$res/ab.txt" | grep -v "^$" | tail -80
pack decode-ab
