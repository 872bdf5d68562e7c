#!/usr/bin/env bash
# On the GPU machine after build.sh and scripts/emit_for_device.sh (.devcarry carried): the first
# call's profile (call1-h100/ncu.txt): Nsight Compute over prof.py's five convolutions with each
# stdlib, and instruction-level warp stall samples of the 7 x 7 x 512 one and the stem
# (summarize_sass.py reads the CSV files). Its timings came from ../2026-11-27-h200-conv-split/run.sh.
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h200-conv-reduce
timeout 300 ncu --profile-from-start off --clock-control none \
    --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis python3 $here/prof.py >"$res/ncu.txt" 2>&1
echo "ncu rc=$?"; grep -E "^  [a-z_A-Z].*\(|Duration|Warp Cycles Per Issued" "$res/ncu.txt" | head -60
for name in c512 stem; do
    timeout 150 ncu --profile-from-start off --clock-control none -c 2 \
        --section SourceCounters --section WarpStateStats \
        -o "$res/sass_$name" python3 $here/prof.py $name >"$res/sass_$name.log" 2>&1
    ncu --import "$res/sass_$name.ncu-rep" --page source --print-source sass --csv >"$res/sass_$name.csv" 2>&1
    echo "$name: $(wc -l <"$res/sass_$name.csv") sass lines"
done
pack convsass
