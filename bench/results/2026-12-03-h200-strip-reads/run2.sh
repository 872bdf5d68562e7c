#!/usr/bin/env bash
# On the GPU machine, .devcarry carried:   bash bench/results/2026-12-03-h200-strip-reads/run2.sh
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-12-03-h200-strip-reads
export HDS_CACHE_DIR=/tmp/hds-cache
python3 "$here/profile.py" 2>&1 | tee "$res/profile.txt"
ncu -k regex:skinny_shifted -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    python3 "$here/profile.py" --ncu >"$res/ncu.txt" 2>&1
grep -E "Duration|Throughput|Registers|Achieved Occupancy|Issued Ipc|Stall|No Eligible|Eligible Warps|Warp Cycles" "$res/ncu.txt" | head -40
pack profile
