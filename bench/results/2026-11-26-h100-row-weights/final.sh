# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here first): the harness's
# row and Llama-MLP sweeps and every GPU test, on this tree.
set -uo pipefail
source bench/device_env.sh
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
python3 bench/bench_sweep.py --out "$out/harness" --only rows mlp > "$out/harness.log" 2>&1
awk -F'|' '/softmax|norm|llama/ {print $2, $3, $7}' "$out/harness/sweep.md"
python3 -m pytest -q --timeout 300 tests/gpu -p no:cacheprovider > "$out/pytest-gpu.txt" 2>&1
tail -3 "$out/pytest-gpu.txt"
