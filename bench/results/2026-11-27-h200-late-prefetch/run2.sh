# On the GPU machine, with .devcarry carried: scripts/emit_for_device.sh run here first (the tree
# with the early prefetch in wgmma kernels and whole 64-column slabs), and
# .devcarry/late/sweep_llama_mlp.{cu,h} emitted by c55da84 (late prefetch only). The harness's
# Llama MLP sweep for both, twice each, alternating; the kernels after; then the GPU tests of
# the wgmma schedules' epilogues and the graphs.
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    for w in late new; do
        dir=$PWD/.devcarry/emitted
        [[ $w == late ]] && dir=$PWD/.devcarry/late
        HDS_EMITTED_DIR=$dir python3 bench/bench_sweep.py --out $res/$w$run --only mlp >$res/$w$run.log 2>&1
        echo "$w$run: $(grep llama $res/$w$run/sweep.md | awk -F'|' '{print $3, $7}' | paste -sd';')"
    done
done
python3 bench/results/2026-11-27-h200-mlp-profile/mlp_kernels.py $res >$res/kernels-new.txt 2>&1
grep -E "^T=|k[0-9]_" $res/kernels-new.txt | cut -c1-110
pack early
timeout 240 python3 -m pytest -q --timeout 200 tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -p no:cacheprovider \
    -k "sm90 or epilogue or swap or dispatch or mlp or llama or graph" >$out/pytest-gpu-early.txt 2>&1
tail -2 $out/pytest-gpu-early.txt
