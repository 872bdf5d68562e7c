# On the GPU machine, with .devcarry carried: a second harness GEMM sweep and every GPU test.
set -uo pipefail
source bench/device_env.sh
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
python3 bench/bench_sweep.py --out "$out/harness2" --only gemm > "$out/harness2.log" 2>&1
grep -E "gemm_f32" "$out/harness2/sweep.md" | awk -F'|' '{print $3, $7}'
python3 -m pytest -q --timeout 300 tests/gpu -p no:cacheprovider > "$out/pytest-gpu.txt" 2>&1
tail -3 "$out/pytest-gpu.txt"
