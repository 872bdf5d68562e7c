# On the GPU machine, after scripts/emit_for_device.sh and, here, the row sweeps' graphs emitted
# and built into .devcarry/rows/base (the compiler before: b65b959) and .devcarry/rows/after
# (build.sh of ../2026-11-26-h100-row-weights): the row GPU tests, then both side by side with
# torch.compile at short N, two runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
gpu_tests pytest-rows.txt tests/gpu/test_gpu_ops.py -k "rows or softmax or norm"
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/compiler" --ns 1,9,12,16,17,18,24,30,31,32,33,61 \
    2>&1 | grep run | tee "$res/compiler.txt"
pack compiler
