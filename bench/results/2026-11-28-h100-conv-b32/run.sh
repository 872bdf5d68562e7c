#!/usr/bin/env bash
# On the GPU machine after build.sh and scripts/emit_for_device.sh (.devcarry carried).
#   CALL=1: every convolution at batch 32 with each set against cuDNN (run.py, two runs), then
#           Nsight Compute over c64 and c512 with `old`, and the instruction-level stall samples
#           of c64 (bench/sass_stalls.py).
#   CALL=2: the 3 x 3 convolutions at batch 32 and 1 with each set, ResNet-18 at batch 1 and 32
#           with `old` and `new` (../2026-11-27-h200-conv-split/models.sh), the GPU tests of the
#           convolutions on the tree.
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h100-conv-b32
names=""
[[ ${CALL:-2} == 2 ]] && names="c64 c64s2 c128 c128s2 c256 c256s2 c512 c128s2_b1 c256_b1 c256s2_b1 c512_b1"
for set in $(cat .devcarry/convb32/sets); do
    python3 $here/run.py --out "$res" --build "$set" $names >"$res/build-$set.log" 2>&1 &
done
wait
python3 $here/run.py --out "$res" $names 2>&1 | tee "$res/convs.txt" | grep "^run\|Error\|error" | tail -40
pack convb32
if [[ ${CALL:-2} == 1 ]]; then
    SETS=old timeout 200 ncu --profile-from-start off --clock-control none \
        --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
        --section MemoryWorkloadAnalysis python3 $here/run.py --out /tmp --prof c64 c512 >"$res/ncu.txt" 2>&1
    echo "ncu rc=$?"; grep -E "^  [a-z_A-Z].*\(|Duration|Warp Cycles Per Issued|Registers Per|Achieved Occ|Compute \(SM\) Thr|Memory Thr" "$res/ncu.txt" | head -60
    SETS=old timeout 150 ncu --profile-from-start off --clock-control none -c 2 \
        --section SourceCounters --section WarpStateStats \
        -o "$res/sass_c64" python3 $here/run.py --out /tmp --prof c64 >"$res/sass_c64.log" 2>&1
    ncu --import "$res/sass_c64.ncu-rep" --page source --print-source sass --csv >"$res/sass_c64.csv" 2>&1
    python3 bench/sass_stalls.py "$res/sass_c64.csv" 2>&1 | tee "$res/stalls_c64.txt"
else
    source bench/results/2026-11-27-h200-conv-split/models.sh
    pack convb32
    gpu_tests pytest-gpu-conv.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "conv or resnet"
fi
pack convb32
