# On the GPU machine: prof.py under Nsight Compute (our kernel and torch.compile's, one call
# each), Inductor's code kept; back as $OUT/NAME.tgz.   bash prof.sh NAME OPS NS
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
here=bench/results/2026-11-28-h200-row-chunks
TORCH_LOGS=output_code python3 $here/prof.py --ops "$2" --ns "$3" >"$res/inductor.log" 2>&1 || true
ncu --profile-from-start off --section SpeedOfLight --section LaunchStats --section Occupancy \
    --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    python3 $here/prof.py --ops "$2" --ns "$3" >"$res/ncu.txt" 2>&1 || true
grep -c "profiled" "$res/ncu.txt" || true
pack "$1"
