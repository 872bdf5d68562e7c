# On the GPU machine, after scripts/emit_for_device.sh and, here,
#   bash bench/results/2026-11-26-h100-row-weights/build.sh after=build/hdsc before=/tmp/nostream
# (/tmp/nostream: hdsc with switch.patch applied, run with HDS_X_NOSTREAM=1): the row GPU tests, then the
# f32 row sweeps' graphs from both compilers side by side with torch.compile, two runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
gpu_tests pytest-rows.txt tests/gpu/test_gpu_ops.py -k "rows or softmax or norm"
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/compiler" --ops softmax_f32,layer_norm_f32 \
    --ns 8192,8196,12288,16384,20480,24576,32768 2>&1 | grep run | tee "$res/compiler.txt"
pack compiler
