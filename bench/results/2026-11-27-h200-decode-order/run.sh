#!/usr/bin/env bash
# On the GPU machine, .devcarry carried (scripts/emit_for_device.sh at the tree before the patch): Nsight Compute over
# decoding (ours and SDPA's kernels) at two sizes.
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-27-h200-decode-order
for cfg in "128 4 16384" "64 1 32768"; do
    tag=$(echo "$cfg" | tr ' ' _)
    timeout 240 ncu --profile-from-start off --clock-control none \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
        --section Occupancy --section LaunchStats --section SchedulerStats \
        python3 $here/prof.py $cfg >"$res/ncu_$tag.txt" 2>&1
    echo "$cfg rc=$?"; grep -E "^  [a-z_A-Z].*\(|Duration|DRAM Throughput|Memory Throughput" "$res/ncu_$tag.txt" | head -40
done
pack decode-profile
