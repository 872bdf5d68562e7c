# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here; the sm_80 attention
# sweep graphs, every sweep_attention_* of them, as the compiler before emitted them in .devcarry/base): the harness's attention sweep
# of the sm_80 schedule for the tree before (`base`) and this one (`new`), alternating, twice; then
# the attention GPU tests.  bash run.sh
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    res=$res bash bench/results/2026-11-27-h200-tiles-192/sweeps.sh $run sm80 --only attention --match sm80
done
pack sweeps
timeout 200 python3 -m pytest -q --timeout 100 tests/gpu/test_gpu_attention.py -p no:cacheprovider >$out/pytest-gpu-attention.txt 2>&1
tail -2 $out/pytest-gpu-attention.txt
