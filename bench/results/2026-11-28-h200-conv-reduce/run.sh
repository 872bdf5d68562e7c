#!/usr/bin/env bash
# On the GPU machine after build.sh and scripts/emit_for_device.sh (.devcarry carried), calls 2
# (SETS="old new s16") and 3 (SETS="old new h16"):
# ../2026-11-27-h200-conv-split/run.py (ResNet-18's 3 x 3 convolutions with each stdlib against
# cuDNN), ResNet-18 at batch 1 with each stdlib (bench/bench_torch.py, a process each, two
# runs: the stdlib placed in .devcarry/stdlib, where the package looks first beside
# .devcarry/bin/hdsc; `new` is the tree's), Nsight Compute over prof.py's convolutions, the
# SASS of the 7 x 7 one with each stdlib, and the GPU tests of the convolutions (the tree).
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h200-conv-reduce
sets=$(cat .devcarry/convsplit/sets)
python3 bench/results/2026-11-27-h200-conv-split/run.py --out "$res" 2>&1 | tee "$res/convs.txt" | grep "^run\|Error\|error" | tail -40
for run in 1 2; do
    for set in $sets; do
        rm -rf .devcarry/stdlib
        [[ $set == old ]] && cp -r .devcarry/convsplit/old-stdlib .devcarry/stdlib
        [[ -d .devcarry/convsplit/$set-stdlib && $set != old ]] && cp -r .devcarry/convsplit/$set-stdlib .devcarry/stdlib
        HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py --only resnet18_b1 \
            --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        echo "$set run $run: $(grep resnet "$res/models-$set-$run/torch.md")"
    done
done
rm -rf .devcarry/stdlib
timeout 300 ncu --profile-from-start off --clock-control none \
    --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
    python3 $here/prof.py c256 c512 >"$res/ncu.txt" 2>&1
echo "ncu rc=$?"; grep -E "^  [a-z_A-Z].*\(|Duration|Warp Cycles Per Issued" "$res/ncu.txt" | head -60
for set in $sets; do  # the SASS of the 7 x 7 x 512 convolution
    nvcc -cubin -gencode=arch=compute_90a,code=sm_90a -I runtime .devcarry/convsplit/$set/conv_c512.cu -o /tmp/c512-$set.cubin \
        && cuobjdump -sass /tmp/c512-$set.cubin >"$res/sass-c512-$set.txt"
done
n=""; python3 -c "import xdist" 2>/dev/null && n="-n 8"
python3 -m pytest -q $n tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "conv or resnet" -p no:cacheprovider >"$res/pytest-gpu-conv.txt" 2>&1
tail -2 "$res/pytest-gpu-conv.txt"
pack convreduce
