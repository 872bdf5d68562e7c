#!/usr/bin/env bash
# On the GPU machine, .devcarry carried (build.sh first): matmul_skinny of each set at M = 16,
# K = 4095, N = 4097 under Nsight Compute (warp states, memory, SASS stall samples).
set -uo pipefail
rm -rf /tmp/hds-results
source bench/device_env.sh
here=bench/results/2026-11-28-h200-skinny-unaligned
for set in "$@"; do
    timeout 200 ncu --profile-from-start off --clock-control none -k regex:skinny -c 1 \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
        --section SourceCounters --section Occupancy -o "$res/$set" python3 $here/prof.py 16 4095 4097 $set \
        >"$res/$set.log" 2>&1
    ncu --import "$res/$set.ncu-rep" --page source --print-source sass --csv >"$res/${set}_sass.csv" 2>&1
    ncu --import "$res/$set.ncu-rep" >"$res/${set}_details.txt" 2>&1
    python3 bench/sass_stalls.py "$res/${set}_sass.csv" 16
    grep -E "Duration|Memory Throughput|DRAM Throughput|Warp Cycles Per Issued|Achieved Occupancy|L2 Hit" "$res/${set}_details.txt"
done
pack ncu
