# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here; the GEMM sweep
# graphs as the compiler before emitted them in .devcarry/base): the harness's GEMM sweep for the
# tree before (`base`) and this one (`new`), alternating, twice; then the GPU tests of the matmul
# dispatch.  bash run.sh
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    for w in base new; do
        dir=$PWD/.devcarry/emitted
        [[ $w == base ]] && dir=$PWD/.devcarry/base
        HDS_EMITTED_DIR=$dir python3 bench/bench_sweep.py --out $res/$w$run --only gemm >$res/$w$run.log 2>&1
        echo "$w$run: $(grep -E '_f16 .*M=(1|16) K=4096 N=4096|bf16 .*M=(1|16) K=4096 N=4096' $res/$w$run/sweep.md | awk -F'|' '{print $2, $3, $7, $10}' | paste -sd';')"
    done
done
pack sweeps
timeout 240 python3 -m pytest -q --timeout 200 tests/gpu/test_gpu_ops.py -p no:cacheprovider -k "sm90 or swap or dispatch" >$out/pytest-gpu.txt 2>&1
tail -2 $out/pytest-gpu.txt
