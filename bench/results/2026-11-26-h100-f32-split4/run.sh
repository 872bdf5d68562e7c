# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and
# ../2026-11-26-h100-f32-split/emit.sh REV f32-split4 run here first): the f32 GPU tests, the
# before/after sweep (../2026-11-26-h100-f32-split/run.py) and the harness's GEMM sweep.
#   bash bench/results/2026-11-26-h100-f32-split4/run.sh
set -uo pipefail
source bench/device_env.sh
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
here=bench/results/2026-11-26-h100-f32-split4
python3 -m pytest -q --timeout 300 tests/gpu/test_gpu_ops.py -k "matmul_f32" -p no:cacheprovider >"$out/pytest-f32.txt" 2>&1
tail -1 "$out/pytest-f32.txt"
python3 bench/results/2026-11-26-h100-f32-split/run.py --out "$out/sweep" --dir f32-split4 \
    --m 32,64,77,96,128,200,256,512,1024,2048,4096 2>&1 | grep -E "geomean|M=(64|77|96|128|200|256) "
python3 bench/bench_sweep.py --out "$out/harness" --only gemm 2>&1 | tail -3
grep -E "gemm_f32" "$out/harness/sweep.md" | awk -F'|' '{print $3, $7}'
