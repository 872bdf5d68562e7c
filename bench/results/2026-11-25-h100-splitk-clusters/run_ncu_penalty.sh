# Where the split kernel loses time when it does not split: M = 192, K = N = 4096 (96 tiles),
# 64 x 128 tiles without and with SPLITK, under ncu (warp states, instruction counts).
source bench/device_env.sh
python3 bench/results/2026-11-25-h100-splitk-clusters/one_variant.py 192 4096 4096 v64x128 v64x128s > /dev/null 2>&1
ncu --kernel-name regex:mm64x128 --section SpeedOfLight --section WarpStateStats --section InstructionStats \
    --section SchedulerStats --section LaunchStats --section Occupancy \
    python3 bench/results/2026-11-25-h100-splitk-clusters/one_variant.py 192 4096 4096 v64x128 v64x128s 2>&1 \
    | grep -v "^==PROF==\|^    ---\|^\s*$" > $OUT/ncu-m192.txt
grep -E "mm64x128|Duration|Executed Ipc|Issue Slots|Stall|Warp Cycles|Executed Instructions |Registers|Shared Memory Config|Dynamic Shared|Block Limit|Eligible|Active Warps" $OUT/ncu-m192.txt
