# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here first): the
# matmul GPU tests, then the harness's GEMM and Llama-MLP sweeps twice; everything in one archive.
#   bash bench/results/2026-11-27-h200-swap-tiles/run.sh
set -uo pipefail
source bench/device_env.sh
python3 -m pytest -q --timeout 300 tests/gpu/test_gpu_ops.py -k "matmul" -p no:cacheprovider >$res/pytest-matmul.txt 2>&1
tail -1 $res/pytest-matmul.txt
for run in 1 2; do
    python3 bench/bench_sweep.py --out $res/sweep$run --only gemm mlp >$res/sweep$run.log 2>&1
    grep -E "gemm_(f16|bf16) |llama" $res/sweep$run/sweep.md | awk -F'|' '{print $2, $3, $7}' | tr -s ' ' | paste -sd ';' | head -c 3000
    echo
done
pack results
