#!/usr/bin/env bash
# On the GPU machine, .devcarry carried:   bash bench/results/2026-12-03-h200-strip-reads/run3.sh
set -uo pipefail
source bench/device_env.sh
export HDS_CACHE_DIR=/tmp/hds-cache
python3 bench/results/2026-12-03-h200-strip-reads/profile.py --lm-head 2>&1 | grep -v Warn | tee "$res/profile-lm-head.txt"
pack lmhead
