# On the GPU machine: Nsight Compute over softmax f32 at N = 127 in .devcarry/rows/{prev,shifted}
# (call 9); back as $OUT/prof2.tgz.   bash prof2.sh
cd "$(dirname "$0")/../../.."
set -euo pipefail
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
here=bench/results/2026-11-28-h200-row-chunks
for v in prev shifted; do
ncu --profile-from-start off --section SpeedOfLight --section LaunchStats --section Occupancy \
    --section MemoryWorkloadAnalysis --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis_Tables \
    python3 $here/prof.py --variant $v --ops softmax_f32 --ns 127 >"$res/ncu-$v.txt" 2>&1 || true
done
pack prof2
