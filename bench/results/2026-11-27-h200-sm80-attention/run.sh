# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here; the sm_80 attention
# sweep graphs, every sweep_attention_* of them, as the compiler before emitted them in .devcarry/base): the harness's attention sweep
# of the sm_80 schedule for the tree before (`base`) and this one (`new`), alternating, twice; then
# the attention GPU tests.  bash run.sh
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    for w in base new; do
        dir=$PWD/.devcarry/emitted
        [[ $w == base ]] && dir=$PWD/.devcarry/base
        HDS_EMITTED_DIR=$dir python3 bench/bench_sweep.py --out $res/$w$run --only attention --match sm80 >$res/$w$run.log 2>&1
        echo "$w$run: $(grep sm80 $res/$w$run/sweep.md | awk -F'|' '{print $3, $7}' | paste -sd';')"
    done
done
pack sweeps
timeout 200 python3 -m pytest -q --timeout 100 tests/gpu/test_gpu_attention.py -p no:cacheprovider >$out/pytest-gpu-attention.txt 2>&1
tail -2 $out/pytest-gpu-attention.txt
