# On the GPU machine, from the repository root, after build.sh here (carry .devcarry/resnet):
# the graph's and cuDNN's times, then ncu's reading of each of the graph's 23 kernels.
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-26-h100-resnet-b32
name=${1:-resnet18_b32}
python3 $here/prof.py --lib .devcarry/resnet --name "$name" --variants "${VARIANTS:-}" 2>&1 | tee "$out/times-$name.txt"
if [ "${NCU:-1}" = 1 ]; then
    ncu --clock-control none --kernel-name regex:fused_0_0 --launch-count 23 \
        --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
        --section MemoryWorkloadAnalysis \
        --metrics smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active --csv --page details \
        python3 $here/prof.py --lib .devcarry/resnet --name "$name" --build "${BUILD:-$name}" --once > "$out/ncu-${BUILD:-$name}.csv" 2> "$out/ncu-${BUILD:-$name}.err"
    tail -3 "$out/ncu-${BUILD:-$name}.err"
    python3 $here/ncu_summary.py "$out/ncu-${BUILD:-$name}.csv" | tee "$out/ncu-${BUILD:-$name}.md"
fi
