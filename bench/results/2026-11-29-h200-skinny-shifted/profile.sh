#!/usr/bin/env bash
# On the GPU machine after build.sh: Nsight Compute on matmul_skinny_shifted of build.sh's set SET
# (default `new`) at M = 16, K = 4095, N = 4097 (the first point run.py runs), its first launch,
# with the warps' stall reasons.
#   [SET=h1] bash bench/results/2026-11-29-h200-skinny-shifted/profile.sh
set -uo pipefail
source bench/device_env.sh
py=bench/results/2026-11-28-h200-skinny-unaligned/run.py
set=${SET:-new}
echo $set >.devcarry/shifted/sets
python3 $py --tag shifted --out "$res" --build $set >"$res/build-$set.log" 2>&1
ncu -k regex:skinny_shifted_k0 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section Occupancy --section SchedulerStats --section LaunchStats \
    --metrics dram__bytes_read.sum,lts__t_sector_hit_rate.pct,$(echo smsp__average_warps_issue_stalled_{barrier,long_scoreboard,short_scoreboard,mio_throttle,lg_throttle,wait,math_pipe_throttle,not_selected,dispatch_stall,no_instruction,branch_resolving,selected,sleeping,membar,drain,tex_throttle,imc_miss}_per_issue_active.ratio | tr ' ' ,) \
    python3 $py --tag shifted --ms 16 --out "$res/ncu-run" >"$res/ncu.txt" 2>&1
cat "$res/ncu.txt" | grep -v "^graph=\|of copy" | grep -v "^\s*$" | grep "stalled\|Duration\|DRAM Through\|dram__\|Registers\|Issued Warp"
pack profile
