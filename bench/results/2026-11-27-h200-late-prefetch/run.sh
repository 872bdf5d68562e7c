# On the GPU machine, with .devcarry carried: scripts/emit_for_device.sh run here first, and
# .devcarry/before/sweep_llama_mlp.{cu,h} emitted by the compiler before the change. The harness's
# Llama MLP sweep before and after, twice each, alternating; then after's kernels against
# torch.compile's (../2026-11-27-h200-mlp-profile/mlp_kernels.py).
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    for w in before after; do
        dir=$PWD/.devcarry/emitted
        [[ $w == before ]] && dir=$PWD/.devcarry/before
        HDS_EMITTED_DIR=$dir python3 bench/bench_sweep.py --out $res/$w$run --only mlp >$res/$w$run.log 2>&1
        echo "$w$run: $(grep llama $res/$w$run/sweep.md | awk -F'|' '{print $3, $7}' | paste -sd';')"
    done
done
python3 bench/results/2026-11-27-h200-mlp-profile/mlp_kernels.py $res >$res/kernels.txt 2>&1
grep -E "^T=|k[0-9]_" $res/kernels.txt | cut -c1-110
pack late
