# On the GPU machine, with .devcarry carried: scripts/emit_for_device.sh run here first, and the
# baseline's sweep_llama_mlp.{cu,h} in .devcarry/BASE (`before`: the compiler before c55da84;
# `late`: c55da84's). The harness's Llama MLP sweep for the baseline and the emitted tree
# (NEW), twice each, alternating; then the tree's kernels against torch.compile's
# (../2026-11-27-h200-mlp-profile/mlp_kernels.py); with `tests`, the GPU tests of the sm_90a
# schedules, their epilogues and the graphs.
#   bash run.sh before after          (first step: before1, after1, ...)
#   bash run.sh late new tests        (second step: late1, new1, ...)
set -uo pipefail
source bench/device_env.sh
base=$1 new=$2
for run in 1 2; do
    for w in $base $new; do
        dir=$PWD/.devcarry/emitted
        [[ $w == "$base" ]] && dir=$PWD/.devcarry/$base
        HDS_EMITTED_DIR=$dir python3 bench/bench_sweep.py --out $res/$w$run --only mlp >$res/$w$run.log 2>&1
        echo "$w$run: $(grep llama $res/$w$run/sweep.md | awk -F'|' '{print $3, $7}' | paste -sd';')"
    done
done
python3 bench/results/2026-11-27-h200-mlp-profile/mlp_kernels.py $res >$res/kernels-$new.txt 2>&1
grep -E "^T=|k[0-9]_" $res/kernels-$new.txt | cut -c1-110
pack $new
if [[ ${3:-} == tests ]]; then
    timeout 240 python3 -m pytest -q --timeout 200 tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py \
        -p no:cacheprovider -k "sm90 or epilogue or swap or dispatch or mlp or llama or graph" >$out/pytest-gpu-$new.txt 2>&1
    tail -2 $out/pytest-gpu-$new.txt
fi
