#!/usr/bin/env bash
# Nsight Compute on chosen GEMM kernels (bench/profile_gemm.py: the wgmma variants,
# or HDS_PROFILE_SOURCE=examples/matmul_tiled.hds HDS_PROFILE_DTYPE=f32), on the lent
# GPU with `.devcarry` carried:
#   bash bench/run_profile_on_device.sh M N K KERNEL [KERNEL...]
# Writes $OUT/ncu-KERNEL.txt (speed of light, warp states, memory, launch and
# occupancy) and prints their headline lines.
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
python3 bench/profile_gemm.py "$@" >/dev/null  # build outside the profiler
for kernel in "${@:4}"; do
    ncu --kernel-name "$kernel" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats \
        --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
        python3 bench/profile_gemm.py "$1" "$2" "$3" "$kernel" >"$out/ncu-$kernel.txt" 2>&1
    echo "== $kernel (ncu exit $?)"
    grep -E "Duration|Throughput|Cluster|Occupancy|Stall|Waves|Registers" "$out/ncu-$kernel.txt" | head -40
done
# Where the warps wait: average stalled warps per issued instruction, by reason.
for kernel in "${@:4}"; do
    ncu --kernel-name "$kernel" --launch-skip 2 --launch-count 1 \
        --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
        python3 bench/profile_gemm.py "$1" "$2" "$3" "$kernel" >"$out/stalls-$kernel.txt" 2>&1
    echo "== stalls of $kernel (ncu exit $?)"
    grep -E "stalled" "$out/stalls-$kernel.txt" | sort -k3 -g -r | head -8
done
